import { createServer, type Server } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@weir/common';
import { silentLogger } from '@weir/common/testing';
import { describe, expect, it } from 'vitest';
import { LocalCluster, childInvocation, type LocalClusterOptions } from './local-cluster.ts';
import { rejection } from '../testing/rejection.ts';

const logger = silentLogger();

function options(dynamic: Record<string, string>, lines: string[]): LocalClusterOptions {
  const dir = mkdtempSync(join(tmpdir(), 'weir-local-cluster-'));
  return {
    taskManagers: 1,
    slots: 1,
    dir,
    dynamic,
    env: { ...process.env, WEIR_LOG_LEVEL: 'warn' },
    cwd: dir,
    clock: systemClock,
    logger,
    onLine: (name, stream, line) => lines.push(`${name} ${stream} ${line}`),
    startTimeoutMs: 60_000,
  };
}


describe('LocalCluster', () => {
  it('rejects a bad config before starting any process', async () => {
    const lines: string[] = [];
    const error = await rejection(LocalCluster.start(options({ 'jobmanager.rpc.prot': '1' }, lines)));
    expect(error.code).toBe('INVALID_CONFIG');
    expect(lines).toEqual([]);
  });

  it('fails before starting anything when the JobManager port is taken, as by another JobManager', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const lines: string[] = [];
    try {
      const dynamic = { 'jobmanager.rpc.address': '127.0.0.1', 'jobmanager.bind-host': '127.0.0.1', 'jobmanager.rpc.port': String(port) };
      const error = await rejection(LocalCluster.start(options(dynamic, lines)));
      expect(error.code).toBe('PORT_IN_USE');
      expect(error.message).toBe(
        `port ${port} is already in use (by another JobManager, or another process): stop it, or start this cluster on another port with -D jobmanager.rpc.port=<port>`,
      );
      expect(lines).toEqual([]);
    } finally {
      taken.close();
    }
  });
});

describe('childInvocation', () => {
  it("passes the cluster's -D properties as WEIR_* variables, off the command line that ps shows", () => {
    const spec = childInvocation(
      'taskmanager',
      { configFile: '/etc/weir.yaml', dynamic: { 's3.secret-key': 'hunter2', 'rest.port': '8082' }, env: { PATH: '/bin' } },
      { 'blob.storage.directory': '/work/tm-1/blobs' },
    );
    expect(spec.args).toEqual(['taskmanager', '--config', '/etc/weir.yaml', '-D', 'blob.storage.directory=/work/tm-1/blobs']);
    expect(spec.args.join(' ')).not.toContain('hunter2');
    expect(spec.env).toEqual({ PATH: '/bin', WEIR_S3_SECRET_KEY: 'hunter2', WEIR_REST_PORT: '8082' });
  });
});
