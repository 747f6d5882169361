import { createHash, generateKeyPairSync, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { readCommittedLines } from '@weir/examples';
import { createDataExchangeClient, createJobServiceClient, grpc, type JobDetails__Output } from '@weir/rpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpStatus, initClusterCredentials, jobIdFrom, ProcessCluster, runWeir, WeirProcess, writeJobFile } from '../src/index.ts';
import { rawCall } from '../src/raw-grpc.ts';
import { PAUSING_SOURCE } from './pausing-source.ts';
import { listenForSniffedReports, reportFromJobManager, SECRET_SNIFFER } from './hardening-jobs.ts';

/** Running sums per key (n mod 10) of 0 … count-1 at a steady rate, at parallelism 2: the keyBy crosses TaskManagers. */
const SUMS_JOB = `
import { Types } from '@weir/api';
import { DataGeneratorSource, FileSink, RateLimiterStrategy, SimpleStringEncoder } from '@weir/connectors';
export default function sums(env, args) {
  const [count, rate, output] = args;
  env.setParallelism(2);
  env.fromSource(new DataGeneratorSource((i) => i, Number(count), RateLimiterStrategy.perSecond(Number(rate)), Types.NUMBER), 'numbers').uid('numbers')
    .map((n) => [n % 10, n]).uid('key')
    .keyBy(([key]) => key)
    .reduce(([key, a], [, b]) => [key, a + b]).uid('sum')
    .map(([key, sum]) => key + ' ' + sum).uid('format')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder()).build()).uid('sink');
}
`;

/**
 * The running sums of SUMS_JOB from a source that goes quiet instead of ending once it emitted
 * every number, checkpointed so the sink commits: the job runs until the test cancels it,
 * however fast or slow the machine is.
 */
const RUNNING_SUMS_JOB = `
import { Boundedness, InputStatus, Types, type ReaderOutput, type SourceReaderContext, type SplitEnumeratorContext, type SplitSource, type SplitSourceReader } from '@weir/api';
import { DataGeneratorSource, FileSink, RateLimiterStrategy, SimpleStringEncoder, type GeneratorSplit } from '@weir/connectors';
${PAUSING_SOURCE}
export default function sums(env, args) {
  const [count, rate, output] = args;
  env.setParallelism(2);
  env.enableCheckpointing(300);
  env.fromSource(new PausingSource(new DataGeneratorSource((i) => i, Number(count), RateLimiterStrategy.perSecond(Number(rate)), Types.NUMBER)), 'numbers').uid('numbers')
    .map((n) => [n % 10, n]).uid('key')
    .keyBy(([key]) => key)
    .reduce(([key, a], [, b]) => [key, a + b]).uid('sum')
    .map(([key, sum]) => key + ' ' + sum).uid('format')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder()).build()).uid('sink');
}
`;

/** The largest sum per key is the sum of its numbers; one line per number, none lost, none twice. */
function expectExactSums(output: string, count: number): void {
  const lines = readCommittedLines(output).map((line) => line.split(' ').map(Number) as [number, number]);
  expect(lines.length).toBe(count);
  const expected = new Map<number, number>();
  for (let n = 0; n < count; n++) expected.set(n % 10, (expected.get(n % 10) ?? 0) + n);
  const written = new Map<number, number>();
  for (const [key, sum] of lines) written.set(key, Math.max(written.get(key) ?? 0, sum));
  expect(written).toEqual(expected);
}

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/** An ES256 JWT signed with `key`, as an OIDC provider would issue it. */
function jwt(key: KeyObject, claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'ES256', kid: 'test-key', typ: 'JWT' })}.${part(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

/** The SHA-256 fingerprint of the certificate a TLS server shows now. */
function servedFingerprint(port: number, ca: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, ca, servername: 'localhost' }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.end();
    });
    socket.on('error', reject);
  });
}

describe('a secured cluster (mutual TLS, HTTPS, tokens and JWTs) under attack', { timeout: 600_000 }, () => {
  const COUNT = 4_000;
  const RATE = 500;
  let dir: string;
  let sec: string;
  let ca: Buffer;
  let cluster: ProcessCluster;
  let adminToken: string;
  const tokens = { alice: 'weir_alice-submitter-token', bob: 'weir_bob-submitter-token', vic: 'weir_vic-viewer-token' };
  let jwtKey: KeyObject;
  let caArgs: string[];
  let securityKeys: Record<string, string>;

  const weirAs = (token: string | undefined, args: readonly string[]) => cluster.weir([...args.slice(0, 1), ...caArgs, ...args.slice(1)], { env: { WEIR_TOKEN: token ?? '' } });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weir-security-'));
    sec = join(dir, 'sec');
    const init = await initClusterCredentials(sec);
    adminToken = init.adminToken!;
    appendFileSync(join(sec, 'tokens'), `sha256:${sha256(tokens.alice)} submitter alice\nsha256:${sha256(tokens.bob)} submitter bob\nsha256:${sha256(tokens.vic)} viewer vic\n`);
    ca = init.ca;
    const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    jwtKey = keys.privateKey;
    writeFileSync(join(dir, 'jwks.json'), JSON.stringify({ keys: [{ ...keys.publicKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'ES256', use: 'sig' }] }));
    securityKeys = {
      ...init.keys,
      'security.auth.jwt.jwks': join(dir, 'jwks.json'),
      'security.auth.jwt.issuer': 'https://idp.test',
      'security.auth.jwt.audience': 'weir',
      // Every address is bound (cluster.ts's default): protected, so no acknowledgement is needed.
      'security.insecure-bind-acknowledged': 'false',
    };
    expect(Object.keys(securityKeys)).toContain('security.ssl.internal.cert');
    caArgs = ['-D', `security.ssl.internal.ca=${init.caPath}`];
    cluster = await ProcessCluster.start({
      taskManagers: 2,
      slots: 1,
      // The job's code on the JobManager reads no file but Weir's code (the tokens file and keys are below the temp dir the other tests allow).
      config: { ...securityKeys, 'state.checkpoints.dir': join(dir, 'checkpoints'), 'jobmanager.user-code.read-paths': '', 'jobmanager.bind-host': '0.0.0.0', 'taskmanager.bind-host': '0.0.0.0', 'rest.bind-address': '0.0.0.0' },
      clientTls: { ca },
      prometheus: true,
    });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('runs alice\'s job exactly while every attack is refused and logged, and takes rotated certificates for new connections', async () => {
    // First, a job's main (alice's), run in the JobManager's job worker, reads none of the JobManager's secrets: its tokens file, its private keys, its environment or command line.
    const sniffed = await listenForSniffedReports();
    try {
      const secretFiles = [join(sec, 'tokens'), securityKeys['security.ssl.internal.key']!, securityKeys['security.ssl.rest.key'] ?? join(sec, 'rest-key.pem')];
      const sniff = await weirAs(tokens.alice, ['run', writeJobFile(SECRET_SNIFFER, 'sniff.ts'), '--', sniffed.url, ...secretFiles]);
      expect(sniff.code, sniff.stderr).toBe(0);
      const { pid, ppid, weirVariables, ...found } = reportFromJobManager(sniffed.reports, cluster.jobManager.pid!);
      expect(found).toEqual({
        secretKey: null,
        accessKey: null,
        anyValueWithTheSecret: false,
        parentEnviron: 'ERR_ACCESS_DENIED',
        parentCmdline: 'ERR_ACCESS_DENIED',
        files: secretFiles.map(() => 'ERR_ACCESS_DENIED'),
        write: 'ERR_ACCESS_DENIED',
      });
      expect(weirVariables.filter((name) => name !== 'WEIR_LOG_LEVEL')).toEqual([]);
    } finally {
      await sniffed.close();
    }

    const output = join(dir, 'out');
    const jobFile = writeJobFile(SUMS_JOB);
    const submitted = await weirAs(tokens.alice, ['run', '--detached', writeJobFile(RUNNING_SUMS_JOB, 'running-sums.ts'), '--', String(COUNT), String(RATE), output]);
    expect(submitted.code, submitted.stderr).toBe(0);
    const jobId = jobIdFrom(submitted.stdout);
    const authorized = new grpc.Metadata();
    authorized.set('authorization', `Bearer ${adminToken}`);
    const client = cluster.client;
    const details = (id: string) => new Promise<JobDetails__Output>((resolve, reject) => client.getJob({ jobId: id }, authorized, (err, d) => (err ? reject(err) : resolve(d!))));
    const getJob = async (id: string) => (await details(id)).summary!.status;
    const deadline = Date.now() + 30_000;
    while ((await getJob(jobId)) !== 'RUNNING') {
      if (Date.now() > deadline) throw new Error(`job never ran:\n${cluster.logs()}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    // Submissions without a token, with a wrong one, an expired or foreign JWT, and a viewer's token.
    const attempts: [string, string | undefined, RegExp][] = [
      ['no token', undefined, /needs a token/],
      ['a wrong token', 'weir_not-a-token-of-this-cluster', /not one this cluster knows/],
      ['an expired JWT', jwt(jwtKey, { sub: 'mallory', role: 'submitter', iss: 'https://idp.test', aud: 'weir', exp: Math.floor(Date.now() / 1000) - 60 }), /JWT was refused: "exp" claim timestamp check failed/],
      ['a JWT for another audience', jwt(jwtKey, { sub: 'mallory', role: 'submitter', iss: 'https://idp.test', aud: 'elsewhere', exp: Math.floor(Date.now() / 1000) + 600 }), /JWT was refused: unexpected "aud" claim value/],
      ["a viewer's token", tokens.vic, /'vic' \(role viewer\) may not run jobs/],
    ];
    for (const [what, token, expected] of attempts) {
      const result = await weirAs(token, ['run', '--detached', jobFile, '--', '10', '10', join(dir, 'never')]);
      expect(result.code, what).not.toBe(0);
      expect(result.stderr, what).toMatch(expected);
    }
    // A valid JWT of a viewer reads, but may not cancel.
    const viewerJwt = jwt(jwtKey, { sub: 'carol', roles: ['viewer'], iss: 'https://idp.test', aud: 'weir', exp: Math.floor(Date.now() / 1000) + 600 });
    const listed = await weirAs(viewerJwt, ['list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(jobId);
    // bob, another submitter, may not cancel alice's job; nor may the viewer.
    const bobCancels = await weirAs(tokens.bob, ['cancel', jobId]);
    expect(bobCancels.stderr).toMatch(/'bob' \(role submitter\) may cancel only the jobs it submitted \(this one was submitted by token:alice\)/);
    const carolCancels = await weirAs(viewerJwt, ['cancel', jobId]);
    expect(carolCancels.stderr).toMatch(/'carol' \(role viewer\) may not cancel/);

    // Plain text to the JobManager's TLS port: the connection fails, nothing is answered.
    const plainJm = await rawCall(cluster.jobManagerAddress, '/weir.v1.JobService/ListJobs', 'unary', Buffer.alloc(0), 3_000);
    expect(plainJm.code).toBe(grpc.status.UNAVAILABLE);

    // A TaskManager data port: plain text fails, and TLS without a client certificate fails the handshake.
    const dataAddress = /"dataAddress":"([^"]+)"/.exec(cluster.taskManagers[0]!.output)![1]!;
    const plainData = await rawCall(dataAddress, '/weir.v1.DataExchange/Subscribe', 'bidi', Buffer.alloc(0), 3_000);
    expect(plainData.code).toBe(grpc.status.UNAVAILABLE);
    const noCertificate = createDataExchangeClient(dataAddress, {}, { ca });
    const subscribeStatus = await new Promise<grpc.StatusObject>((resolve) => {
      const call = noCertificate.Subscribe({ deadline: Date.now() + 3_000 });
      call.on('data', () => {});
      call.on('error', () => {});
      call.on('status', resolve);
      call.write({ subscribe: { consumerDataAddress: 'attacker:1' } });
    });
    noCertificate.close();
    expect(subscribeStatus.code).toBe(grpc.status.UNAVAILABLE);

    // The liveness endpoint: plain HTTP fails, HTTPS without a client certificate fails the handshake (the JobManager's probes, with one, keep the TaskManagers alive).
    const livenessAddress = /"livenessAddress":"([^"]+)"/.exec(cluster.taskManagers[0]!.output)![1]!;
    expect(await httpStatus(`http://${livenessAddress}/liveness`)).toBeTypeOf('string');
    expect(await httpStatus(`https://localhost:${livenessAddress.split(':')[1]}/liveness`, { ca })).toBeTypeOf('string');

    // A rogue TaskManager: it trusts the cluster's CA, but its own certificate comes from another CA.
    const rogueCa = join(dir, 'rogue');
    expect((await runWeir(['security', 'init', rogueCa, '--host', 'localhost', '--ip', '127.0.0.1'])).code).toBe(0);
    const rogueKeys = { ...securityKeys, 'security.ssl.internal.cert': join(rogueCa, 'node.pem'), 'security.ssl.internal.key': join(rogueCa, 'node-key.pem') };
    const rogue = new WeirProcess(
      'rogue-taskmanager',
      ['taskmanager', '-D', `jobmanager.rpc.address=127.0.0.1`, '-D', `jobmanager.rpc.port=${cluster.jobManagerAddress.split(':')[1]}`, '-D', 'taskmanager.host=127.0.0.1', '-D', 'taskmanager.resource-id=rogue', ...Object.entries(rogueKeys).flatMap(([k, v]) => ['-D', `${k}=${v}`])],
      join(dir, 'rogue.log'),
    );
    await cluster.jobManager.waitForOutput(/refused TaskManagerService\.Connect from .*: no client certificate the cluster CA signed/, 20_000);
    expect(rogue.output).not.toContain('registered with the JobManager');
    await rogue.stop();

    // REST: plain HTTP to the HTTPS port fails; without a token 401; a viewer reads but may not cancel.
    const restPort = Number(new URL(cluster.restUrl).port);
    expect(await httpStatus(`http://127.0.0.1:${restPort}/jobs/overview`)).toBeTypeOf('string');
    const https = `https://localhost:${restPort}`;
    expect(await httpStatus(`${https}/jobs/overview`, { ca })).toBe(401);
    expect(await httpStatus(`${https}/jobs/overview`, { ca, token: tokens.vic })).toBe(200);
    expect(await httpStatus(`${https}/jobs/${jobId}?mode=cancel`, { ca, token: tokens.vic, method: 'PATCH' })).toBe(403);
    expect(await httpStatus(`${https}/jobs/${jobId}?mode=cancel`, { ca, token: tokens.bob, method: 'PATCH' })).toBe(403);

    // Prometheus endpoints of the JobManager and a TaskManager: a token of any role, else 401.
    for (const process of [cluster.jobManager, cluster.taskManagers[0]!]) {
      const metrics = cluster.metricsUrl(process);
      expect(await httpStatus(metrics), metrics).toBe(401);
      expect(await httpStatus(metrics, { token: 'weir_not-a-token-of-this-cluster' }), metrics).toBe(401);
      expect(await httpStatus(metrics, { token: tokens.vic }), metrics).toBe(200);
    }

    // weir security check reports every door closed.
    const check = await runWeir(['security', 'check', '-m', cluster.jobManagerAddress, ...caArgs, '--rest', `localhost:${restPort}`]);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout.trim().split('\n').map((line) => line.split(/\s+/)[0])).toEqual(['protected', 'protected', 'protected', 'protected']);
    expect(check.stdout).toContain('over TLS without a token: refused, a token is required');

    // Every refused mutating call and alice's submission are in the audit log (the last line may still be on its way).
    await cluster.jobManager.waitForOutput(/"who":"bob".*"action":"cancel".*"via":"rest".*"result":"refused/, 5_000);
    const audit = cluster.jobManager.output.split('\n').filter((line) => line.includes('"audit":true'));
    expect(audit.some((line) => line.includes('"who":"alice"') && line.includes('"action":"submit"') && line.includes('"result":"ok"'))).toBe(true);
    expect(audit.filter((line) => line.includes('"action":"submit"') && line.includes('refused')).length).toBe(attempts.length);
    expect(audit.some((line) => line.includes('"who":"bob"') && line.includes('"action":"cancel"') && line.includes('"via":"grpc"') && line.includes('refused'))).toBe(true);
    expect(audit.some((line) => line.includes('"who":"bob"') && line.includes('"action":"cancel"') && line.includes('"via":"rest"') && line.includes('refused'))).toBe(true);

    // Rotation: new node and REST certificates from the same CA, written while the job runs.
    const oldRest = new X509Certificate(readFileSync(join(sec, 'rest.pem'))).fingerprint256;
    const renewed = await runWeir(['security', 'init', sec, '--host', 'localhost', '--ip', '127.0.0.1']);
    expect(renewed.stdout).toContain('Kept the CA');
    const newRest = new X509Certificate(readFileSync(join(sec, 'rest.pem'))).fingerprint256;
    expect(newRest).not.toBe(oldRest);
    const served = Date.now() + 10_000;
    while ((await servedFingerprint(restPort, ca)) !== newRest) {
      if (Date.now() > served) throw new Error('the REST API still shows the old certificate');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await getJob(jobId)).toBe('RUNNING');
    // A TaskManager started now connects with the new node certificate; a new client connects too.
    await cluster.startTaskManager();
    const fresh = createJobServiceClient(cluster.jobManagerAddress, {}, { ca });
    const overview = await new Promise<number>((resolve, reject) => fresh.getClusterOverview({}, authorized, (err, o) => (err ? reject(err) : resolve(o!.taskManagers))));
    fresh.close();
    expect(overview).toBe(3);

    // Every number in and committed (checkpoints go on over the new connections); then alice cancels her job.
    const committed = Date.now() + 180_000;
    while (readCommittedLines(output).length < COUNT) {
      if (Date.now() > committed) throw new Error(`only ${readCommittedLines(output).length} of ${COUNT} lines were committed:\n${cluster.logs()}`);
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(await getJob(jobId)).toBe('RUNNING');
    const canceled = await weirAs(tokens.alice, ['cancel', jobId]);
    expect(canceled.code, canceled.stderr).toBe(0);
    const ends = Date.now() + 60_000;
    let finished = await details(jobId);
    while (finished.summary!.status !== 'CANCELED' && Date.now() < ends) {
      await new Promise((r) => setTimeout(r, 200));
      finished = await details(jobId);
    }
    expect(finished.summary!.status, finished.failureCause).toBe('CANCELED');
    expectExactSums(output, COUNT);

    // A job after the rotation runs over new data connections (the new TaskManager's among them), exactly.
    const after = join(dir, 'after');
    const second = await weirAs(tokens.alice, ['run', jobFile, '--', '2000', '100000', after]);
    expect(second.code, second.stderr + cluster.logs()).toBe(0);
    expectExactSums(after, 2_000);
  });
});
