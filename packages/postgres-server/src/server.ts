import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, WeirError } from '@weir/common';
import { PostgresServerErrorCode } from './errors.ts';
import { BASE_DIR_PREFIX, claimOwnership, sweepOrphans } from './orphans.ts';

/** Debian's place for PostgreSQL 15's server binaries (the system's own server runs from there too). */
export const POSTGRES_BIN_DIR = '/usr/lib/postgresql/15/bin';

/** The role that logs in with a password over TCP (every other role is trusted), for tests of a wrong password. */
export const PASSWORD_USER = { user: 'weir_password', password: 'weir-secret' } as const;

export interface PostgresServerOptions {
  /** Server settings (postgresql.conf names) added to or replacing the defaults below; e.g. `{ wal_level: 'replica' }`. */
  readonly settings?: Readonly<Record<string, string | number>>;
  /** How long start-up may take; default 60 s. */
  readonly startTimeoutMs?: number;
}

/**
 * What CDC and the exactly-once sink need (logical decoding, prepared transactions, slots and
 * WAL senders), and what a throwaway instance can afford: no fsync (a crash of the machine is
 * not what the tests simulate; a SIGKILLed server still recovers from its WAL), small buffers.
 */
const DEFAULT_SETTINGS: Readonly<Record<string, string | number>> = {
  wal_level: 'logical',
  max_prepared_transactions: 20,
  max_replication_slots: 10,
  max_wal_senders: 10,
  max_connections: 100,
  shared_buffers: '32MB',
  fsync: 'off',
  full_page_writes: 'off',
};

/**
 * Trust for local and for every role over TCP but one, which must give its password
 * (scram-sha-256): so the tests can check a wrong password without giving every test one.
 */
const PG_HBA = [
  'local all all trust',
  'local replication all trust',
  `host all ${PASSWORD_USER.user} 127.0.0.1/32 scram-sha-256`,
  `host replication ${PASSWORD_USER.user} 127.0.0.1/32 scram-sha-256`,
  'host all all 127.0.0.1/32 trust',
  'host replication all 127.0.0.1/32 trust',
].join('\n') + '\n';

const live = new Set<ChildProcess>();
// A test runner that exits with a server still running must not leave it (and its backends) behind.
process.once('exit', () => {
  for (const child of live) killGroup(child, 'SIGKILL');
});

/**
 * A PostgreSQL 15 instance of our own on 127.0.0.1 and a free port, for tests, the demo and
 * benchmarks: `initdb` into a temp directory owned by the `postgres` user (initdb and postgres
 * refuse to run as root), its unix socket in that directory, never the system server on 5432.
 * Start, stop, SIGKILL and restart on the same port and data directory; `destroy()` removes it.
 */
export class PostgresServer {
  #process: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();

  private constructor(
    readonly port: number,
    /** The temp directory: the data directory, the unix socket and the server's log are in it. */
    readonly baseDir: string,
    private readonly uid: number,
    private readonly gid: number,
    private readonly startTimeoutMs: number,
  ) {}

  static async start(options: PostgresServerOptions = {}): Promise<PostgresServer> {
    const { uid, gid } = postgresUser();
    sweepOrphans();
    const baseDir = mkdtempSync(join(tmpdir(), BASE_DIR_PREFIX));
    claimOwnership(baseDir);
    chownSync(baseDir, uid, gid);
    const server = new PostgresServer(await freePort(), baseDir, uid, gid, options.startTimeoutMs ?? 60_000);
    server.#initdb({ ...DEFAULT_SETTINGS, ...options.settings });
    await server.#launch();
    server.psql(`CREATE ROLE ${PASSWORD_USER.user} LOGIN SUPERUSER REPLICATION PASSWORD '${PASSWORD_USER.password}'`);
    return server;
  }

  get dataDir(): string {
    return join(this.baseDir, 'data');
  }

  get host(): string {
    return '127.0.0.1';
  }

  get pid(): number | undefined {
    return this.#process?.pid;
  }

  get running(): boolean {
    return this.#process !== undefined;
  }

  /** `postgres://user@127.0.0.1:port/database` (trust auth: no password needed but for PASSWORD_USER). */
  connectionString(database = 'postgres', user = 'postgres'): string {
    return `postgres://${user}@${this.host}:${this.port}/${database}`;
  }

  /** Runs `sql` with psql as the superuser `postgres` over TCP; returns its unaligned, tuples-only output. Throws with psql's error. */
  psql(sql: string, database = 'postgres'): string {
    const run = spawnSync('psql', ['-h', this.host, '-p', String(this.port), '-U', 'postgres', '-d', database, '-X', '-A', '-t', '-q', '-v', 'ON_ERROR_STOP=1', '-c', sql], {
      encoding: 'utf8',
      timeout: 60_000,
      // Tests compare whole tables through psql (100k rows: a few MB); the default 1 MiB would kill psql.
      maxBuffer: 256 * 1024 * 1024,
    });
    if (run.status !== 0) {
      throw new WeirError(PostgresServerErrorCode.PSQL_FAILED, `psql on port ${this.port} failed (${run.status ?? run.signal}) running ${sql.slice(0, 200)}: ${run.stderr || run.stdout}`);
    }
    return run.stdout.trim();
  }

  createDatabase(name: string): void {
    this.psql(`CREATE DATABASE "${name}"`);
  }

  /** A fast shutdown (SIGINT: clients are disconnected, open transactions rolled back, prepared ones kept), waiting for the server to exit. */
  async stop(): Promise<void> {
    await this.#signal('SIGINT');
  }

  /** SIGKILL to the server and every backend, as a crash: the next start recovers from the WAL. */
  async kill(): Promise<void> {
    await this.#signal('SIGKILL');
  }

  /** Starts the server again on the same port and data directory (stopping it first if it runs). */
  async restart(): Promise<void> {
    await this.stop();
    await this.#launch();
  }

  /** Kills the server and deletes its directory. */
  async destroy(): Promise<void> {
    await this.kill();
    rmSync(this.baseDir, { recursive: true, force: true });
  }

  get #logFile(): string {
    return join(this.baseDir, 'postgres.log');
  }

  #initdb(settings: Readonly<Record<string, string | number>>): void {
    const run = spawnSync('runuser', ['-u', 'postgres', '--', join(POSTGRES_BIN_DIR, 'initdb'), '-D', this.dataDir, '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--auth=trust', '--no-sync'], {
      cwd: this.baseDir,
      encoding: 'utf8',
      timeout: 60_000,
      // Tests compare whole tables through psql (100k rows: a few MB); the default 1 MiB would kill psql.
      maxBuffer: 256 * 1024 * 1024,
    });
    if (run.status !== 0) {
      throw new WeirError(PostgresServerErrorCode.SERVER_START_FAILED, `initdb into ${this.dataDir} failed (${run.status ?? run.signal}): ${run.stderr || run.stdout}`);
    }
    const conf = {
      ...settings,
      listen_addresses: `'${this.host}'`,
      port: this.port,
      unix_socket_directories: `'${this.baseDir}'`,
    };
    const lines = Object.entries(conf).map(([key, value]) => `${key} = ${typeof value === 'number' || /^'/.test(value) ? value : `'${value}'`}`);
    const confFile = join(this.dataDir, 'postgresql.auto.conf');
    writeFileSync(confFile, lines.join('\n') + '\n');
    const hbaFile = join(this.dataDir, 'pg_hba.conf');
    writeFileSync(hbaFile, PG_HBA);
    for (const file of [confFile, hbaFile]) chownSync(file, this.uid, this.gid);
  }

  async #launch(): Promise<void> {
    const log = openSync(this.#logFile, 'a');
    chownSync(this.#logFile, this.uid, this.gid);
    // Started as the postgres user directly (not through runuser) in a process group of its
    // own, so a SIGKILL reaches the postmaster and its backends rather than a wrapper.
    const child = spawn(join(POSTGRES_BIN_DIR, 'postgres'), ['-D', this.dataDir], {
      cwd: this.baseDir,
      uid: this.uid,
      gid: this.gid,
      detached: true,
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    this.#process = child;
    live.add(child);
    let exitCode: number | null | undefined;
    this.#exited = new Promise((resolve) =>
      child.once('exit', (code) => {
        exitCode = code;
        live.delete(child);
        if (this.#process === child) this.#process = undefined;
        resolve();
      }),
    );
    const deadline = Date.now() + this.startTimeoutMs;
    for (;;) {
      if (exitCode !== undefined) {
        throw new WeirError(PostgresServerErrorCode.SERVER_START_FAILED, `PostgreSQL exited with ${exitCode} during start-up; its log:\n${this.#tail()}`);
      }
      if (this.#ready()) return;
      if (Date.now() > deadline) {
        await this.kill();
        throw new WeirError(PostgresServerErrorCode.SERVER_START_FAILED, `PostgreSQL did not accept connections on port ${this.port} within ${this.startTimeoutMs} ms; its log:\n${this.#tail()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  #ready(): boolean {
    return spawnSync(join(POSTGRES_BIN_DIR, 'pg_isready'), ['-q', '-h', this.host, '-p', String(this.port), '-t', '1']).status === 0;
  }

  async #signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.#process;
    if (child === undefined) return;
    if (signal === 'SIGKILL') killGroup(child, signal);
    else child.kill(signal);
    await this.#exited;
    // The postmaster's backends end on their own once it is gone; a restart must not find them holding the shared memory.
    if (signal === 'SIGKILL') await waitForGroupGone(child.pid!);
  }

  #tail(): string {
    try {
      return readFileSync(this.#logFile, 'utf8').split('\n').slice(-30).join('\n');
    } catch {
      return '(no log)';
    }
  }
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (!existsSync(join(POSTGRES_BIN_DIR, 'initdb')) || uid.status !== 0 || gid.status !== 0) {
    throw new WeirError(PostgresServerErrorCode.NO_POSTGRES, `a PostgreSQL instance needs PostgreSQL 15's binaries in ${POSTGRES_BIN_DIR} and a 'postgres' user to run them as (apt-get install postgresql-15)`);
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Whether PostgreSQL 15's binaries and its user are there, so a test can skip where they are not. */
export function postgresAvailable(): boolean {
  try {
    postgresUser();
    return true;
  } catch {
    return false;
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // Already gone.
  }
}

async function waitForGroupGone(pgid: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
