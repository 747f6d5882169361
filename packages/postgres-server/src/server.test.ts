import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_USER, PostgresServer, postgresAvailable } from './index.ts';

describe.skipIf(!postgresAvailable())('PostgresServer', () => {
  let server: PostgresServer;

  beforeAll(async () => {
    server = await PostgresServer.start();
  });

  afterAll(async () => {
    await server?.destroy();
  });

  it('runs with logical WAL and prepared transactions, keeps data through a SIGKILL and a restart on the same port, and is removed', async () => {
    expect(server.port).not.toBe(5432);
    expect(server.psql('SHOW wal_level')).toBe('logical');
    expect(Number(server.psql('SHOW max_prepared_transactions'))).toBeGreaterThan(0);
    server.psql('CREATE TABLE t (id int PRIMARY KEY)');
    server.psql("BEGIN; INSERT INTO t VALUES (1); PREPARE TRANSACTION 'p1'");
    server.psql('INSERT INTO t VALUES (2)');
    const pid = server.pid;
    await server.kill();
    expect(server.running).toBe(false);
    await server.restart();
    expect(server.pid).not.toBe(pid);
    expect(server.psql('SELECT gid FROM pg_prepared_xacts')).toBe('p1');
    server.psql("COMMIT PREPARED 'p1'");
    await server.stop();
    await server.restart();
    expect(server.psql('SELECT id FROM t ORDER BY id')).toBe('1\n2');
  });

  it('asks PASSWORD_USER for its password over TCP', () => {
    const psql = (password: string) =>
      spawnSync('psql', ['-h', server.host, '-p', String(server.port), '-U', PASSWORD_USER.user, '-d', 'postgres', '-Atc', 'SELECT 1'], { encoding: 'utf8', env: { ...process.env, PGPASSWORD: password } });
    expect(psql(PASSWORD_USER.password).stdout.trim()).toBe('1');
    expect(psql('wrong').stderr).toMatch(/password authentication failed/);
  });

  it('takes other settings', async () => {
    const other = await PostgresServer.start({ settings: { wal_level: 'replica', max_prepared_transactions: 0 } });
    try {
      expect(other.psql('SHOW wal_level')).toBe('replica');
      expect(other.psql('SHOW max_prepared_transactions')).toBe('0');
    } finally {
      await other.destroy();
    }
    expect(existsSync(other.baseDir)).toBe(false);
  });
});
