import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@weir/cli';
import { createJobServiceClient, type ClusterOverview__Output } from '@weir/rpc';
import { jobIdFrom, repoRoot, runWeir, WeirProcess, writeJobFile } from '../src/index.ts';
import { TOO_WIDE } from './jobs.ts';

/*
 * Issue 12, rough edges of `weir cluster start` and `weir run`: "up" only once every
 * TaskManager registered, with the -m a later `weir run` needs; a port already in use refused
 * before anything says "up"; a job waiting for slots says so at once; the README's first job
 * on an input the sandboxed JobManager may not read says which key to set.
 */
describe('weir cluster start', () => {
  let cluster: WeirProcess;
  let port: number;
  let address: string;

  beforeAll(async () => {
    port = await freePort();
    const restPort = await freePort();
    address = `localhost:${port}`;
    const dir = mkdtempSync(join(tmpdir(), 'weir-local-'));
    cluster = new WeirProcess(
      'cluster',
      ['cluster', 'start', '--taskmanagers', '2', '--slots', '1', '--dir', dir, '-D', `jobmanager.rpc.port=${port}`, '-D', `rest.port=${restPort}`, '-D', 'taskmanager.host=127.0.0.1'],
      join(dir, 'cluster.log'),
    );
    await cluster.waitForOutput(/JobManager is up/, 60_000);
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('says "up" once both TaskManagers registered, with the -m that reaches it', async () => {
    const overview = await new Promise<ClusterOverview__Output>((resolve, reject) => {
      const client = createJobServiceClient(address);
      client.getClusterOverview({}, (err, value) => (client.close(), err ? reject(err) : resolve(value!)));
    });
    expect(overview).toEqual({ taskManagers: 2, slotsTotal: 2, slotsFree: 2 });
    const up = cluster.output.split('\n').filter((line) => line.startsWith('JobManager is up'));
    expect(up).toEqual([
      `JobManager is up at ${address} with 2 TaskManager(s) of 1 slot(s), all registered; submit a job with \`pnpm weir run -m ${address} <job.ts>\`; Ctrl-C stops the cluster`,
    ]);
  });

  it('refuses to start a second cluster on the same port before saying anything is up', async () => {
    const second = await runWeir(['cluster', 'start', '--taskmanagers', '1', '--dir', mkdtempSync(join(tmpdir(), 'weir-local-')), '-D', `jobmanager.rpc.port=${port}`, '-D', `rest.port=${await freePort()}`], { timeoutMs: 30_000 });
    expect(second.code).toBe(1);
    expect(second.stdout).not.toContain('is up');
    expect(second.stderr).toBe(
      `error: port ${port} is already in use (by another JobManager, or another process): stop it, or start this cluster on another port with -D jobmanager.rpc.port=<port>\n`,
    );
  });

  it("the image's healthcheck passes for the JobManager and fails for one that does not answer", async () => {
    // As in the image: `weir` on PATH, the port from the environment.
    const bin = mkdtempSync(join(tmpdir(), 'weir-bin-'));
    symlinkSync(join(repoRoot, 'packages/cli/bin/weir.js'), join(bin, 'weir'));
    const check = (rpcPort: number) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [join(repoRoot, 'deploy/healthcheck.mjs')], {
          env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, WEIR_JOBMANAGER_RPC_PORT: String(rpcPort) },
          stdio: 'ignore',
        });
        child.on('exit', (code) => resolve(code));
      });
    expect(await check(port)).toBe(0);
    expect(await check(await freePort())).toBe(1);
  });

  it("fails the README's first job on an input outside the directory the cluster was started in, naming the key that allows it", async () => {
    const input = join(mkdtempSync(join(tmpdir(), 'weir-input-')), 'input.txt');
    writeFileSync(input, 'quick start\n');
    const job = writeJobFile(`
import type { StreamExecutionEnvironment } from '@weir/api';
import { FileSource, PrintSink, TextLineInputFormat } from '@weir/connectors';

export default function shout(env: StreamExecutionEnvironment, args: string[]) {
  env.fromSource(FileSource.forRecordStreamFormat(new TextLineInputFormat(), args[0]!).build(), 'lines').uid('lines')
    .map((line: string) => line.toUpperCase()).uid('upper')
    .sinkTo(new PrintSink()).uid('print');
}
`, 'shout.ts');
    const run = await runWeir(['run', '-m', address, job, '-p', '2', '--', input]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cannot read file source path ${input}: Access to this API has been restricted (a job's code on the JobManager`);
    expect(run.stderr).toContain('add the directory it reads to that key');
  });

  it('shows a job that needs more slots than there are waiting for them at once, until it is cancelled', async () => {
    const run = new WeirProcess('run', ['run', '-m', address, writeJobFile(TOO_WIDE, 'wide.ts')], join(mkdtempSync(join(tmpdir(), 'weir-run-')), 'run.log'));
    await run.waitForOutput(/is waiting for 5 slots \(2 free\)/, 30_000);
    const jobId = jobIdFrom(run.output);
    expect(run.output).toMatch(new RegExp(`Job ${jobId} is CREATED\\n.* UTC  Job ${jobId} is waiting for 5 slots \\(2 free\\)\\n`));
    const cancel = await runWeir(['cancel', '-m', address, jobId]);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(await run.exited).toBe(1);
    expect(run.output).toContain(`error: job ${jobId} was canceled`);
  });
});
