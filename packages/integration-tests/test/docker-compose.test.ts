import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTopic, produceValues, readCommittedWithJavaClient, readTopic } from '@weir/kafka-broker';
import { checkWordCount, expectedKafkaSums, kafkaInputRecord } from '@weir/examples';
import { artifactsDir, launchChromium } from '../src/browser.ts';
import { BUILD_IMAGES, ComposeProject, docker, dockerUnavailable, WEIR_IMAGE } from '../src/compose.ts';
import { jobIdFrom, repoRoot, runWeir, until } from '../src/index.ts';

import { readFileSync } from 'node:fs';

/**
 * The headline path (issues 27 and 28), as the README's "Run a cluster with Docker" tells a user:
 * the images built (deploy/test/build-images.sh: the Weir image from deploy/Dockerfile and, as
 * Docker Hub is out of reach here, stand-ins for etcd, MinIO, Kafka, Prometheus and
 * PostgreSQL), the whole docker-compose.yml up with three TaskManagers, a job submitted from
 * inside a container and the Kafka running-sums job from the host, then a TaskManager
 * `docker kill`ed, another dying inside its container (the restart policy brings it back) and
 * the leading JobManager `docker kill`ed (the standby takes over): Kafka's own read_committed
 * consumer must see each output line once. The compose file is secured (issue 28): every call
 * here carries the admin token weir-init printed and verifies the cluster with its CA, as the
 * README tells a user; calls without them are refused. Everything the project made goes in afterAll.
 */
const unavailable = dockerUnavailable();
const TASK_MANAGERS = 3;
const RECORDS = 8_000;
const shots = artifactsDir('docker-compose');

describe.skipIf(unavailable !== undefined)(`docker-compose.yml on Docker${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`, () => {
  let project: ComposeProject;
  let kafka: string;
  /** The JobManager that leads now: its service name and host ports. */
  let leader: { service: 'jobmanager-1' | 'jobmanager-2'; rpc: number; rest: number };
  let kafkaJob: string;
  /** What a user takes from the secured cluster: the admin token weir-init printed, the CA from a container. */
  let token: string;
  let caPem: Buffer;
  let caDir: string;
  /** `-D security.ssl.internal.ca=<the CA>`: every weir command from the host verifies the JobManager with it. */
  let caArgs: string[];
  // The CA's -D goes right after the command: what follows `--` is the job's.
  const weir = ([command, ...rest]: readonly string[], withToken = true) => runWeir([command!, ...caArgs, ...rest], { env: withToken ? { WEIR_TOKEN: token } : { WEIR_TOKEN: '' } });

  const jobManagers = () =>
    (['jobmanager-1', 'jobmanager-2'] as const).map((service) => ({
      service,
      rpc: project.ports[service === 'jobmanager-1' ? 'JOBMANAGER_1_RPC' : 'JOBMANAGER_2_RPC'],
      rest: project.ports[service === 'jobmanager-1' ? 'JOBMANAGER_1_REST' : 'JOBMANAGER_2_REST'],
    }));

  /** The JobManager that answers `weir list` from the host (a standby answers NOT_LEADER). */
  const findLeader = async (among = jobManagers()) =>
    until(
      async () => {
        for (const jm of among) if ((await weir(['list', '-m', `localhost:${jm.rpc}`])).code === 0) return jm;
        return undefined;
      },
      (jm) => jm !== undefined,
      90_000,
      'a JobManager that leads',
    ) as Promise<typeof leader>;

  /** GET of the leader's REST API over HTTPS with the admin token (`curl --cacert ca.pem -H "Authorization: Bearer …"`). */
  const rest = async <T,>(path: string): Promise<T> => {
    const res = await httpGet(`https://localhost:${leader.rest}${path}`, { ca: caPem, token });
    if (typeof res === 'string' || res.status !== 200) throw new Error(`GET ${path}: ${typeof res === 'string' ? res : res.status}`);
    return JSON.parse(res.body) as T;
  };

  const jobState = async (jobId: string): Promise<string> =>
    rest<{ state: string }>(`/jobs/${jobId}`).then(
      (job) => job.state,
      (err: Error) => `unreachable (${err.message})`,
    );

  const committedLines = async (): Promise<number> => (await readTopic(kafka, 'sums-out').catch(() => [])).length;

  beforeAll(async () => {
    // Cached layers make a second build take seconds; a first one on a fresh machine about four minutes.
    await promisify(execFile)(BUILD_IMAGES, { cwd: repoRoot, timeout: 900_000, maxBuffer: 64 << 20 });
    project = await ComposeProject.create();
    kafka = `localhost:${project.ports.KAFKA}`;
    await project.compose(['up', '-d', '--no-build', '--scale', `taskmanager=${TASK_MANAGERS}`], 300_000);
    // The README's way to the credentials: the token from weir-init's log, the CA from a container.
    token = /^\S+\s+\|\s+(weir_[A-Za-z0-9_-]+)\s*$/m.exec(await project.compose(['logs', '--no-color', 'weir-init']))?.[1] ?? '';
    expect(token, 'the admin token in `docker-compose logs weir-init`').toMatch(/^weir_/);
    caPem = Buffer.from(await project.compose(['exec', '-T', 'jobmanager-1', 'cat', '/etc/weir/security/ca.pem']));
    caDir = mkdtempSync(join(tmpdir(), 'weir-compose-ca-'));
    writeFileSync(join(caDir, 'ca.pem'), caPem);
    caArgs = ['-D', `security.ssl.internal.ca=${join(caDir, 'ca.pem')}`];
    await project
      .waitHealthy({ 'jobmanager-1': 1, 'jobmanager-2': 1, taskmanager: TASK_MANAGERS, etcd: 1, minio: 1, kafka: 1, prometheus: 1, postgres: 1 }, 180_000)
      .catch(async (err: Error) => {
        throw new Error(`${err.message}\n${await project.logs()}`);
      });
    leader = await findLeader();
  }, 1_200_000);

  afterAll(async () => {
    await project?.down();
    // The Weir image goes, its cached layers stay (--no-prune) for the next build; the base and stand-in images stay too.
    await docker(['rmi', '--no-prune', WEIR_IMAGE]).catch(() => undefined);
    if (caDir !== undefined) rmSync(caDir, { recursive: true, force: true });
  }, 300_000);

  it('is secured: a call without a token is refused over gRPC and HTTPS, plain HTTP to REST fails, the admin token is let in', async () => {
    const noToken = await weir(['list', '-m', `localhost:${leader.rpc}`], false);
    expect(noToken.code).not.toBe(0);
    expect(noToken.stderr).toContain('needs a token');
    // Without the CA the JobManager's certificate is not trusted: TLS, not plain text, answers.
    const noCa = await runWeir(['list', '-m', `localhost:${leader.rpc}`], { env: { WEIR_TOKEN: token } });
    expect(noCa.code).not.toBe(0);
    expect(await httpGet(`https://localhost:${leader.rest}/jobs/overview`, { ca: caPem })).toMatchObject({ status: 401 });
    // A TLS port answering plain HTTP closes the socket: no status comes back.
    expect(typeof (await httpGet(`http://localhost:${leader.rest}/jobs/overview`, { token }))).toBe('string');
    expect(await httpGet(`https://localhost:${leader.rest}/jobs/overview`, { ca: caPem, token })).toMatchObject({ status: 200 });
    expect((await weir(['list', '-m', `localhost:${leader.rpc}`])).code).toBe(0);
  });

  it('runs a job submitted inside a container, where the CLI finds the leader in etcd: exact word counts', async () => {
    const input = '/opt/weir/packages/examples/data/tale-of-two-cities.txt';
    // Attached: `weir run` follows the job until it ends, and fails unless it FINISHED.
    await project.compose(['exec', '-T', '-e', `WEIR_TOKEN=${token}`, 'jobmanager-1', 'weir', 'run', '-p', '2', '/opt/weir/packages/examples/jobs/word-count.ts', '--', input, '/data/word-count'], 180_000);
    const output = await project.compose(['exec', '-T', 'jobmanager-1', 'sh', '-c', "find /data/word-count -type f ! -name '.*' -exec cat {} +"]);
    const check = checkWordCount(readFileSync(join(repoRoot, 'packages/examples/data/tale-of-two-cities.txt'), 'utf8'), output.split('\n').filter((l) => l !== ''));
    expect(check.differences).toEqual([]);
    expect(check.words).toBeGreaterThan(900);
  });

  it('runs the Kafka running-sums job submitted from the host against the compose Kafka; Prometheus scrapes every Weir process; the dashboard shows the job', async () => {
    await createTopic(kafka, 'sums-in', 4);
    await createTopic(kafka, 'sums-out', 2);
    await produceValues(kafka, 'sums-in', range(0, 2_000).map((i) => kafkaInputRecord(i)));
    // The bootstrap servers are the job's, inside the compose network.
    const run = await weir(['run', '--detached', '-m', `localhost:${leader.rpc}`, '-p', '2', join(repoRoot, 'packages/examples/jobs/kafka-running-sums.ts'), '--', 'kafka:9092', 'sums-in', 'sums-out', 'sums', 'EXACTLY_ONCE', '1000', '500']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    kafkaJob = jobIdFrom(run.stdout);
    await until(() => jobState(kafkaJob), (s) => s === 'RUNNING', 60_000, `job ${kafkaJob}`);
    // Output committed: a checkpoint completed and its transactions were committed.
    await until(committedLines, (n) => n > 0, 60_000, 'committed output lines');

    const prometheus = `http://localhost:${project.ports.PROMETHEUS}`;
    const targets = await until(
      async () => {
        const body = (await (await fetch(`${prometheus}/api/v1/targets`)).json()) as { data: { activeTargets: { labels: { job: string; instance: string }; health: string }[] } };
        return body.data.activeTargets.map((t) => `${t.labels.job} ${t.health}`);
      },
      (t) => t.filter((s) => s === 'weir-jobmanager up').length === 2 && t.filter((s) => s === 'weir-taskmanager up').length === TASK_MANAGERS,
      90_000,
      'Prometheus targets up',
    );
    expect(targets.sort()).toEqual([...Array(2).fill('weir-jobmanager up'), ...Array(TASK_MANAGERS).fill('weir-taskmanager up')]);

    const browser = await launchChromium();
    try {
      // The dashboard has no login page yet: its API calls carry the token as a header; its certificate is the cluster CA's.
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, ignoreHTTPSErrors: true, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
      await page.goto(`https://localhost:${leader.rest}/`);
      await page.getByTestId('job-link').filter({ hasText: 'kafka' }).first().click();
      await expect.poll(() => page.getByTestId('job-status').textContent(), { timeout: 30_000 }).toBe('RUNNING');
      await page.screenshot({ path: join(shots, '01-kafka-job-running.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  });

  it('loses a TaskManager to docker kill, one to a process dying inside its container (restarted) and the leading JobManager, is scaled to 4 and 2 TaskManagers: read_committed output exact', async () => {
    expect(kafkaJob).toBeDefined();
    const steps: string[] = [];
    // A `docker kill`ed container stays down: Docker's restart policy leaves containers alone that were stopped through Docker.
    const killed = await project.container('taskmanager', 1);
    await docker(['kill', killed]);
    steps.push('docker kill taskmanager #1');
    await produceValues(kafka, 'sums-in', range(2_000, 4_000).map((i) => kafkaInputRecord(i)));
    await until(committedLines, (n) => n >= 2_000, 120_000, 'output after the TaskManager kill');

    // The TaskManager process dies inside the container: the container exits non-zero and `restart: on-failure` starts it again.
    const dying = await project.container('taskmanager', 2);
    // The weir process is the child of the container's init (`init: true`), as the README shows it.
    await project.compose(['exec', '-T', '--index', '2', 'taskmanager', 'sh', '-c', 'kill -KILL $(cat /proc/1/task/1/children)']);
    steps.push('SIGKILL inside taskmanager #2');
    const restarted = await until(() => project.inspect(dying), (s) => s.restarts >= 1 && s.health === 'healthy', 120_000, 'taskmanager #2 restarted and healthy');
    expect(restarted.status).toBe('running');
    expect((await project.inspect(killed)).status).toBe('exited');

    const before = leader;
    await docker(['kill', await project.container(before.service)]);
    steps.push(`docker kill ${before.service} (leader)`);
    leader = await findLeader(jobManagers().filter((jm) => jm.service !== before.service));
    await until(() => jobState(kafkaJob), (s) => s === 'RUNNING', 120_000, `job ${kafkaJob} on ${leader.service}`);
    steps.push(`${leader.service} leads, job RUNNING`);
    await produceValues(kafka, 'sums-in', range(4_000, 6_000).map((i) => kafkaInputRecord(i)));
    await until(committedLines, (n) => n >= 6_000, 120_000, 'output after the failover');

    // Scaled while the job runs: up to four TaskManagers (the docker-killed one started again and
    // a new one), then down to two, which stops the ones the job may run on: it restarts on the rest.
    const scale = (n: number) => project.compose(['up', '-d', '--no-build', '--no-recreate', '--no-deps', '--scale', `taskmanager=${n}`, 'taskmanager'], 180_000);
    const registered = async () => (await rest<{ taskmanagers: unknown[] }>('/taskmanagers')).taskmanagers.length;
    await scale(4);
    await until(registered, (n) => n === 4, 120_000, 'TaskManagers registered after scaling to 4');
    steps.push('scaled to 4 TaskManagers');
    await scale(2);
    await until(registered, (n) => n === 2, 120_000, 'TaskManagers registered after scaling to 2');
    steps.push('scaled to 2 TaskManagers');
    await until(() => jobState(kafkaJob), (s) => s === 'RUNNING', 120_000, `job ${kafkaJob} on 2 TaskManagers`);
    await produceValues(kafka, 'sums-in', range(6_000, RECORDS).map((i) => kafkaInputRecord(i)));

    await until(committedLines, (n) => n >= RECORDS, 180_000, 'every output line committed').catch(async (err: Error) => {
      throw new Error(`${err.message}\nsteps: ${steps.join('; ')}\n${await project.logs(60)}`);
    });
    // Kafka's own Java consumer, isolation.level=read_committed: code that shares nothing with Weir's.
    const lines = await readCommittedWithJavaClient(kafka, 'sums-out');
    expect(lines.length, steps.join('; ')).toBe(RECORDS);
    expect(lines.sort()).toEqual(expectedKafkaSums(RECORDS));

    const browser = await launchChromium();
    try {
      // The dashboard has no login page yet: its API calls carry the token as a header; its certificate is the cluster CA's.
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, ignoreHTTPSErrors: true, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
      await page.goto(`https://localhost:${leader.rest}/#/jobs/${kafkaJob}`);
      await expect.poll(() => page.getByTestId('job-status').textContent(), { timeout: 30_000 }).toBe('RUNNING');
      await page.screenshot({ path: join(shots, '02-after-failover.png'), fullPage: true });
    } finally {
      await browser.close();
    }
    const cancel = await weir(['cancel', '-m', `localhost:${leader.rpc}`, kafkaJob]);
    expect(cancel.code, cancel.stderr).toBe(0);
  });
});

/** A GET's status and body, or the error that ended it (a TLS port answering plain HTTP closes the socket). */
function httpGet(url: string, options: { token?: string; ca?: Buffer }): Promise<{ status: number; body: string } | string> {
  return new Promise((resolve) => {
    const headers = options.token === undefined ? {} : { authorization: `Bearer ${options.token}` };
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    const request = send(url, { headers, timeout: 10_000, ...(options.ca === undefined ? {} : { ca: options.ca }) }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', (err) => resolve(err.message));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (err) => resolve(err.message));
    request.end();
  });
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}
