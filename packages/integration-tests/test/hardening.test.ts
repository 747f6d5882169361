import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, openSync, closeSync, ftruncateSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectedRunningSums, readCommittedLines } from '@weir/examples';
import { freePort } from '@weir/cli';
import { createJobServiceClient, createTaskManagerServiceClient, grpc } from '@weir/rpc';
import { completedCount, getJob, jobIdFrom, listCheckpoints, ProcessCluster, runWeir, waitForCheckpoints, waitForStatus, WeirProcess, writeJobFile } from '../src/index.ts';
import { RUNNING_SUMS } from './checkpoint-jobs.ts';
import { listenForSniffedReports, reportFromJobManager, SECRET_SNIFFER } from './hardening-jobs.ts';
import { commandLine, listeningAddresses, pidsWith } from './listening-sockets.ts';

/*
 * Issue 28, the attacker's findings that need no TLS or tokens to close: a client that can
 * reach the JobManager tries to read files through savepoints, to delete outside the
 * savepoint directories, to take a live TaskManager's place, to point liveness probes at
 * another service, to hold the REST API with slow connections and to flood it with requests,
 * while a checkpointing job runs beside it and must end exact, never restarted.
 */

const RECORDS = 24_000;
const RATE = 1_500;
const REQUEST_TIMEOUT_MS = 2_000;
const RATE_LIMIT = 12;

/** gRPC status and Weir error code of a call that failed. */
function weirCodeOf(err: grpc.ServiceError): string | undefined {
  return err.metadata?.get('weir-error-code')[0] as string | undefined;
}

/** Registers on the JobManager's TaskManager service as a rogue process would, and resolves with how the stream ended. */
function register(address: string, registration: Record<string, unknown>): Promise<{ code: grpc.status; weirCode: string | undefined; details: string }> {
  const client = createTaskManagerServiceClient(address);
  return new Promise((resolve) => {
    const call = client.connect();
    call.on('data', () => {});
    call.on('error', (err: grpc.ServiceError) => {
      client.close();
      resolve({ code: err.code, weirCode: weirCodeOf(err), details: err.details });
    });
    call.on('end', () => {
      client.close();
      resolve({ code: grpc.status.OK, weirCode: undefined, details: 'accepted' });
    });
    call.write({ register: { slots: 64, pid: 1, leaderEpoch: 0, dataAddress: '127.0.0.1:1', livenessAddress: '', ...registration } });
    setTimeout(() => call.cancel(), 10_000);
  });
}

/** Opens a REST connection that sends its headers and then one byte of body every 500 ms: a slow-body attacker. */
function slowBody(port: number): { closed: Promise<number> } {
  const socket: Socket = connect({ host: '127.0.0.1', port });
  socket.on('error', () => {});
  socket.write('POST /jobs/overview HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
  const drip = setInterval(() => socket.write(' '), 500);
  return {
    closed: new Promise((resolve) =>
      socket.on('close', () => {
        clearInterval(drip);
        resolve(Date.now());
      }),
    ),
  };
}

/** Peak resident memory of `pid` in MiB (VmHWM). */
function peakMemoryMib(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match![1]) / 1024;
}

describe('an attacker who can reach the JobManager, with a job running beside', () => {
  const dir = mkdtempSync(join(tmpdir(), 'weir-hardening-'));
  const savepoints = join(dir, 'savepoints');
  const checkpoints = join(dir, 'checkpoints');
  const output = join(dir, 'out');
  let c: ProcessCluster;
  let jobId: string;

  beforeAll(async () => {
    mkdirSync(savepoints);
    c = await ProcessCluster.start({
      taskManagers: 2,
      slots: 2,
      config: {
        'state.savepoints.dir': savepoints,
        'state.checkpoints.dir': checkpoints,
        // The process clusters of other tests allow the whole temp dir; this one only its own roots.
        'state.savepoints.allowed-dirs': '',
        'state.metadata.max-size': '1mb',
        'rest.server.request-timeout': REQUEST_TIMEOUT_MS,
        'rest.server.max-content-length': '64kb',
        'jobmanager.client.max-requests-per-minute': RATE_LIMIT,
        's3.secret-key': 'jm-only-secret-on-the-command-line',
      },
    });
    const run = await c.weir(['run', '--detached', writeJobFile(RUNNING_SUMS), '--', output, String(RECORDS), String(RATE), '300', 'EXACTLY_ONCE']);
    expect(run.code, run.stderr).toBe(0);
    jobId = jobIdFrom(run.stdout);
    await waitForStatus(c.client, jobId, ['RUNNING']);
    await waitForCheckpoints(c.client, jobId, (cps) => completedCount(cps) >= 1, 30_000);
  }, 120_000);

  afterAll(async () => {
    await c?.stop();
  });

  it('cannot have a savepoint written into /etc, by gRPC or REST, and is told the allowed roots', async () => {
    const cli = await c.weir(['savepoint', jobId, '/etc']);
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toContain(
      `savepoint directory /etc is outside the directories this JobManager allows: ${savepoints}, ${checkpoints} (state.savepoints.dir, state.checkpoints.dir, state.savepoints.allowed-dirs); give a path below one of them`,
    );
    const traversal = await c.weir(['savepoint', jobId, `${savepoints}/../../etc`]);
    expect(traversal.stderr).toContain(`savepoint directory ${savepoints}/../../etc is outside the directories this JobManager allows`);
    const post = await fetch(`${c.restUrl}/jobs/${jobId}/savepoints`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ 'target-directory': 'file:///etc' }) });
    expect(post.status).toBe(403);
    expect(await post.json()).toEqual({
      code: 'PATH_NOT_ALLOWED',
      errors: [`savepoint directory file:///etc is outside the directories this JobManager allows: ${savepoints}, ${checkpoints} (state.savepoints.dir, state.checkpoints.dir, state.savepoints.allowed-dirs); give a path below one of them`],
    });
    expect(existsSync('/etc/.weir-write-probe')).toBe(false);
  });

  it('cannot dispose of a directory outside the allowed roots, even one that looks like a savepoint', async () => {
    const victim = mkdtempSync(join(tmpdir(), 'weir-victim-'));
    writeFileSync(join(victim, '_metadata'), JSON.stringify({ version: 1, kind: 'savepoint' }));
    writeFileSync(join(victim, 'precious'), 'data');
    const dispose = await c.weir(['savepoint', '-d', victim]);
    expect(dispose.code).not.toBe(0);
    expect(dispose.stderr).toContain(`savepoint path ${victim} is outside the directories this JobManager allows`);
    expect(readFileSync(join(victim, 'precious'), 'utf8')).toBe('data');
    // Through a symbolic link that sits inside the savepoint directory.
    symlinkSync(victim, join(savepoints, 'innocent-looking'));
    const linked = await c.weir(['savepoint', '-d', join(savepoints, 'innocent-looking')]);
    expect(linked.stderr).toContain(`savepoint path ${join(savepoints, 'innocent-looking')} is outside the directories this JobManager allows`);
    expect(readFileSync(join(victim, 'precious'), 'utf8')).toBe('data');
  });

  it('cannot make the JobManager read /dev/zero, a 1.5 GB sparse file or /etc/shadow as _metadata, nor learn what a file holds', async () => {
    const zero = join(savepoints, 'zero');
    mkdirSync(zero);
    symlinkSync('/dev/zero', join(zero, '_metadata'));
    const sparse = join(savepoints, 'sparse');
    mkdirSync(sparse);
    const fd = openSync(join(sparse, '_metadata'), 'w');
    ftruncateSync(fd, 1_500_000_000);
    closeSync(fd);
    const shadow = join(savepoints, 'shadow');
    mkdirSync(shadow);
    writeFileSync(join(shadow, '_metadata'), 'root:*:20201:0:99999:7:::\ndaemon:*:20201:0:99999:7:::\n');
    const job = writeJobFile(RUNNING_SUMS);
    const args = ['--', join(dir, 'never'), '10', '10', '1000', 'EXACTLY_ONCE'];

    const zeroRun = await c.weir(['run', '-s', zero, job, ...args]);
    expect(zeroRun.code).not.toBe(0);
    expect(zeroRun.stderr).toContain(`${zero} is not a savepoint: ${join(zero, '_metadata')} is a symbolic link to a file outside ${zero}`);
    const sparseRun = await c.weir(['run', '-s', sparse, job, ...args]);
    expect(sparseRun.stderr).toContain(`${sparse} is not a savepoint: ${join(sparse, '_metadata')} is 1500000000 bytes, more than the 1048576 bytes read from it here (state.metadata.max-size)`);
    const shadowRun = await c.weir(['run', '-s', shadow, job, ...args]);
    expect(shadowRun.stderr).toContain(`${shadow} is not a savepoint: its _metadata cannot be read as checkpoint metadata (it is not JSON (it does not start as JSON))`);
    expect(shadowRun.stderr).not.toContain('root');
    const outside = await c.weir(['run', '-s', '/etc', job, ...args]);
    expect(outside.stderr).toContain('savepoint path /etc is outside the directories this JobManager allows');
    // None of it was read into memory: the JobManager stays far below the 1.5 GB it was offered.
    expect(peakMemoryMib(c.jobManager.pid!)).toBeLessThan(600);
  });

  it("cannot take a live TaskManager's place nor point the JobManager's probes at another service", async () => {
    const registered = async () =>
      ((await (await fetch(`${c.restUrl}/taskmanagers`)).json()) as { taskmanagers: { id: string; path: string; pid: number; registeredAt: number }[] }).taskmanagers.map(
        ({ id, path, pid, registeredAt }) => ({ id, path, pid, registeredAt }),
      );
    const before = await registered();
    const hijack = await register(c.jobManagerAddress, { taskManagerId: 'tm-1' });
    expect(hijack.weirCode).toBe('TASK_MANAGER_ID_IN_USE');
    expect(hijack.details).toMatch(/^TaskManager ID 'tm-1' is in use by a live TaskManager \(heard from \d+ ms ago\); give this one another taskmanager.resource-id, or stop the other one first$/);
    const probe = await register(c.jobManagerAddress, { taskManagerId: 'rogue', livenessAddress: '127.0.0.1:18099/internal/admin?action=x&' });
    expect(probe.weirCode).toBe('INVALID_REGISTRATION');
    expect(probe.details).toBe(
      "invalid TaskManager registration: liveness_address '127.0.0.1:18099/internal/admin?action=x&' is not host:port (the JobManager builds the probe's URL itself; a path, query, user or scheme is refused)",
    );
    expect(await registered()).toEqual(before);
    expect((await getJob(c.client, jobId)).attempt).toBe(0);
  });

  it('sees the secret key of the configuration masked in GET /jobmanager/config', async () => {
    const entries = (await (await fetch(`${c.restUrl}/jobmanager/config`)).json()) as { key: string; value: string }[];
    expect(entries.find((e) => e.key === 's3.secret-key')).toEqual({ key: 's3.secret-key', value: '******' });
    expect(JSON.stringify(entries)).not.toContain('jm-only-secret');
  });

  it('cannot hold the REST API with 300 slow-body connections, nor make it wait for a body it announced too large', async () => {
    const restPort = Number(new URL(c.restUrl).port);
    const started = Date.now();
    const attackers = Array.from({ length: 300 }, () => slowBody(restPort));
    // The gRPC API answers all along.
    const list = await c.weir(['list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(jobId);
    const closedAt = await Promise.all(attackers.map((a) => a.closed));
    // Those past rest.server.max-connections (256) at once, the others by the request timeout.
    expect(Math.max(...closedAt) - started).toBeLessThan(REQUEST_TIMEOUT_MS + 5_000);
    expect((await fetch(`${c.restUrl}/overview`)).status).toBe(200);

    const tooLarge = connect({ host: '127.0.0.1', port: restPort });
    tooLarge.write(`POST /jobs/${jobId}/savepoints HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n{`);
    const answer = await new Promise<string>((resolve) => tooLarge.once('data', (chunk) => resolve(chunk.toString())));
    tooLarge.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('is refused past jobmanager.client.max-requests-per-minute while others keep being answered', async () => {
    const client = createJobServiceClient(c.jobManagerAddress);
    const codes: string[] = [];
    for (let i = 0; i < RATE_LIMIT + 2; i++) {
      codes.push(
        await new Promise<string>((resolve) => client.triggerSavepoint({ jobId: 'not-a-job', targetDirectory: '' }, (err) => resolve(err === null ? 'OK' : (weirCodeOf(err) ?? String(err.code))))),
      );
    }
    client.close();
    const first = codes.indexOf('RATE_LIMITED');
    expect(first, codes.join(', ')).toBeGreaterThanOrEqual(0);
    expect(codes.slice(first).every((code) => code === 'RATE_LIMITED'), codes.join(', ')).toBe(true);
    const list = await c.weir(['list']);
    expect(list.code, list.stderr).toBe(0);
  });

  it('leaves the job beside it untouched: never restarted, and its output exact', async () => {
    const details = await waitForStatus(c.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], 120_000);
    expect(details.summary!.status, `${details.failureCause}\n${c.logs()}`).toBe('FINISHED');
    expect(details.attempt).toBe(0);
    expect(readCommittedLines(output).sort()).toEqual(expectedRunningSums(RECORDS));
    expect(completedCount((await listCheckpoints(c.client, jobId)).checkpoints)).toBeGreaterThan(0);
  });
});

describe('weir cluster start, closed by default', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("binds only loopback addresses, keeps -D secrets off the children's command lines, and gives a job's main none of the JobManager's secrets", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-closed-'));
    const [port, restPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
    const cluster = new WeirProcess(
      'cluster',
      [
        'cluster', 'start', '--taskmanagers', '1', '--slots', '1', '--dir', dir,
        '-D', `jobmanager.rpc.port=${port}`, '-D', `rest.port=${restPort}`, '-D', `metrics.reporter.prom.port=${metricsPort}-${metricsPort + 10}`,
        '-D', 's3.access-key=AKIA-ON-THE-COMMAND-LINE',
      ],
      join(dir, 'cluster.log'),
      [],
      [],
      { WEIR_S3_SECRET_KEY: 'jm-only-secret-in-the-environment' },
    );
    cleanups.push(() => cluster.stop());
    await cluster.waitForOutput(/JobManager is up/, 60_000);

    // The children (their local dirs are below `dir`): a JobManager and a TaskManager.
    const children = pidsWith(join(dir, 'jobmanager')).concat(pidsWith(join(dir, 'taskmanager-1')));
    expect(children.map(commandLine).map((line) => (line.includes(' jobmanager ') ? 'jobmanager' : 'taskmanager')).sort()).toEqual(['jobmanager', 'taskmanager']);
    for (const pid of children) expect(commandLine(pid)).not.toContain('AKIA-ON-THE-COMMAND-LINE');

    // gRPC, REST, data, liveness and Prometheus: every one on 127.0.0.1.
    const listening = children.flatMap(listeningAddresses);
    expect(listening.length, listening.join(', ')).toBeGreaterThanOrEqual(6);
    expect(listening.filter((address) => !address.startsWith('127.0.0.1:')), listening.join(', ')).toEqual([]);

    // A secret file in the cluster's own directory (where the JobManager keeps its blobs); the main gets its path.
    const secretFile = join(dir, 'jobmanager-secret');
    writeFileSync(secretFile, 'jm-only-secret-in-a-file');
    const sniffed = await listenForSniffedReports();
    cleanups.push(sniffed.close);
    const run = await runWeir(['run', '-m', `localhost:${port}`, writeJobFile(SECRET_SNIFFER, 'sniff.ts'), '--', sniffed.url, secretFile], { timeoutMs: 60_000 });
    expect(run.code, `${run.stdout}\n${run.stderr}\n${cluster.output.slice(-3000)}`).toBe(0);
    // What the main found where it ran, in the JobManager's job worker: no secret, and no file outside Weir's code (nor the JobManager's /proc entries) it can read.
    const [jobManager] = pidsWith(join(dir, 'jobmanager'));
    const { pid, ppid, ...found } = reportFromJobManager(sniffed.reports, jobManager!);
    expect(pid).not.toBe(jobManager);
    expect(found).toEqual({
      secretKey: null,
      accessKey: null,
      weirVariables: ['WEIR_LOG_LEVEL'],
      anyValueWithTheSecret: false,
      parentEnviron: 'ERR_ACCESS_DENIED',
      parentCmdline: 'ERR_ACCESS_DENIED',
      files: ['ERR_ACCESS_DENIED'],
      write: 'ERR_ACCESS_DENIED',
    });
  });
});
