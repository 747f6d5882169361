import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpc } from '@weir/rpc';
import { getJob, jobIdFrom, paddedMessage, ProcessCluster, rawCall, waitForStatus, writeJobFile, type CallShape, type RawAnswer } from '../src/index.ts';
import { ENDLESS } from './jobs.ts';

/*
 * Issue 12: requests the JobManager cannot bound. Every gRPC server refuses messages above its
 * limit at once (RESOURCE_EXHAUSTED), every JobService handler answers any input within a
 * second, and a megabyte of job ID gets a one-line error instead of a hung connection.
 */

const LIMIT = 4 * 1024 ** 2;
const ANSWER_WITHIN_MS = 1_000;

const jobService: readonly [string, CallShape][] = [
  ['SubmitJob', 'unary'],
  ['ListJobs', 'unary'],
  ['GetJob', 'unary'],
  ['CancelJob', 'unary'],
  ['WatchJob', 'server-stream'],
  ['ListCheckpoints', 'unary'],
  ['TriggerSavepoint', 'unary'],
  ['DisposeSavepoint', 'unary'],
  ['GetClusterOverview', 'unary'],
  ['FetchResults', 'unary'],
];
const taskManagerService: readonly [string, CallShape][] = [
  ['Connect', 'bidi'],
  ['FetchBundle', 'unary'],
];

/** A string field 1 (job_id, bundle_hash, savepoint_path…) of `size` bytes. */
function stringField1(size: number): Buffer {
  const message = paddedMessage(size);
  message[0] = 0x0a; // field 1, wire type 2: same layout, one tag byte
  return Buffer.concat([message.subarray(0, 1), message.subarray(2)]);
}

describe('bounded requests: the JobManager answers every oversized or malformed request at once and keeps serving', () => {
  let cluster: ProcessCluster;
  let runningJob: string;
  let dataAddress: string;

  beforeAll(async () => {
    cluster = await ProcessCluster.start({ taskManagers: 1, slots: 1, config: { 'jobmanager.rpc.max-message-size': '4mb' } });
    const run = await cluster.weir(['run', '--detached', writeJobFile(ENDLESS)]);
    expect(run.code, run.stderr).toBe(0);
    runningJob = jobIdFrom(run.stdout);
    await waitForStatus(cluster.client, runningJob, ['RUNNING']);
    dataAddress = /"dataAddress":"([^"]+)"/.exec(cluster.taskManagers[0]!.output)![1]!;
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  /** Sends `bytes` to each method while another client keeps listing jobs; every answer must come within a second. */
  async function sendToEach(service: string, methods: readonly [string, CallShape][], bytes: Buffer, address = cluster.jobManagerAddress): Promise<Record<string, RawAnswer>> {
    const answers: Record<string, RawAnswer> = {};
    for (const [method, shape] of methods) {
      answers[method] = await rawCall(address, `/weir.v1.${service}/${method}`, shape, bytes, ANSWER_WITHIN_MS);
      expect((await getJob(cluster.client, runningJob)).summary!.status).toBe('RUNNING');
    }
    return answers;
  }

  it('refuses an oversized request of every method with RESOURCE_EXHAUSTED, naming both sizes', async () => {
    const oversized = paddedMessage(LIMIT + 1_000);
    const answers = { ...(await sendToEach('JobService', jobService, oversized)), ...(await sendToEach('TaskManagerService', taskManagerService, oversized)) };
    for (const [method, answer] of Object.entries(answers)) {
      expect({ method, code: grpc.status[answer.code], details: answer.details }).toEqual({
        method,
        code: 'RESOURCE_EXHAUSTED',
        details: `Received message larger than max (${oversized.length} vs ${LIMIT})`,
      });
    }
    const tooMuchForData = paddedMessage(2 * 1024 ** 2);
    const data = await rawCall(dataAddress, '/weir.v1.DataExchange/Subscribe', 'bidi', tooMuchForData, ANSWER_WITHIN_MS);
    expect([grpc.status[data.code], data.details]).toEqual(['RESOURCE_EXHAUSTED', `Received message larger than max (${tooMuchForData.length} vs ${1024 ** 2})`]);
  });

  it('answers bytes that are no protobuf at all, for every method, with an error', async () => {
    const garbage = Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]);
    const answers = { ...(await sendToEach('JobService', jobService, garbage)), ...(await sendToEach('TaskManagerService', taskManagerService, garbage)) };
    for (const [method, answer] of Object.entries(answers)) {
      expect({ method, code: grpc.status[answer.code], details: answer.details }).toEqual({ method, code: 'INTERNAL', details: 'Error deserializing request' });
    }
  });

  it('answers a megabyte of job ID, path, entry name or hash with one bounded line naming what is wrong', async () => {
    const megabyte = stringField1(1024 ** 2);
    const { SubmitJob: submitted, ...answers } = await sendToEach('JobService', jobService, megabyte);
    const tms = await sendToEach('TaskManagerService', [['FetchBundle', 'unary']], megabyte);
    // A bundle of a megabyte of 'a' is JavaScript: one undefined name, which the error quotes. A
    // status message is cut at 4096 characters, so it still fits an HTTP/2 trailer.
    expect(submitted!.weirCode).toBe('INVALID_JOB');
    expect(submitted!.details).toBe(`job job.js threw while loading: ${'a'.repeat(4_096 - 'job job.js threw while loading: '.length)}… (${1024 ** 2 + 'job job.js threw while loading:  is not defined'.length - 4_096} more characters cut)`);
    const quoted = `'${'a'.repeat(64)}…' (1048576 characters)`;
    // Requests without fields ignore an unknown one, however large, and answer as usual (no error).
    expect(Object.fromEntries(Object.entries({ ...answers, ...tms }).map(([m, a]) => [m, [a.weirCode, a.details]]))).toEqual({
      ListJobs: [undefined, ''],
      GetClusterOverview: [undefined, ''],
      GetJob: ['INVALID_JOB_ID', `${quoted} is not a job ID: a job ID is 32 hex digits, as \`weir list\` shows them`],
      CancelJob: ['INVALID_JOB_ID', `${quoted} is not a job ID: a job ID is 32 hex digits, as \`weir list\` shows them`],
      WatchJob: ['INVALID_JOB_ID', `${quoted} is not a job ID: a job ID is 32 hex digits, as \`weir list\` shows them`],
      ListCheckpoints: ['INVALID_JOB_ID', `${quoted} is not a job ID: a job ID is 32 hex digits, as \`weir list\` shows them`],
      TriggerSavepoint: ['INVALID_JOB_ID', `${quoted} is not a job ID: a job ID is 32 hex digits, as \`weir list\` shows them`],
      FetchResults: ['INVALID_JOB_ID', `${quoted} is not a job ID: a job ID is 32 hex digits, as \`weir list\` shows them`],
      DisposeSavepoint: [
        'INVALID_REQUEST',
        `savepoint path ${quoted} is not a path: give a local path, file:// or s3:// URL of at most 4096 characters without control characters`,
      ],
      FetchBundle: ['INVALID_REQUEST', `${quoted} is not a bundle hash: ask for the SHA-256 (64 hex digits) a DeployTask named`],
    });
  });

  it('answers malformed submissions before evaluating anything', async () => {
    const submit = (request: object) =>
      new Promise<[string | undefined, string]>((resolve) => {
        cluster.client.submitJob({ bundle: Buffer.from('exports.default = () => {}'), entryName: 'job.js', ...request }, { deadline: Date.now() + ANSWER_WITHIN_MS }, (err) =>
          resolve([err?.metadata.get('weir-error-code')[0] as string | undefined, err?.details ?? 'accepted']),
        );
      });
    expect(await submit({ bundle: Buffer.alloc(0) })).toEqual(['INVALID_JOB', 'the job bundle is empty; submit the bundled job module (weir run bundles it)']);
    expect(await submit({ entryName: '../../etc/passwd' })).toEqual([
      'INVALID_REQUEST',
      "entry name '../../etc/passwd' is not a file name: give the job file's base name, at most 255 characters without / or control characters",
    ]);
    expect(await submit({ parallelism: 1_000_000 })).toEqual([
      'INVALID_REQUEST',
      "parallelism 1000000 is above 32768, the most a job can have; give 1 to 32768, or 0 for the cluster's parallelism.default",
    ]);
    expect(await submit({ args: Array.from({ length: 10_001 }, () => 'x') })).toEqual(['INVALID_REQUEST', 'the job is given 10001 args, more than 10000; pass the job a file to read them from']);
  });

  it('refuses a TaskManager registration with a megabyte of ID', async () => {
    const register = (id: string) => {
      // TaskManagerMessage { register (1) { task_manager_id (1), data_address (2) = 'x:1', slots (3) = 1 } }
      const inner = Buffer.concat([stringField1(id.length), Buffer.from([0x12, 0x03, 0x78, 0x3a, 0x31, 0x18, 0x01])]);
      const outer = stringField1(inner.length);
      return Buffer.concat([outer.subarray(0, outer.length - inner.length), inner]);
    };
    const answer = await rawCall(cluster.jobManagerAddress, '/weir.v1.TaskManagerService/Connect', 'bidi', register('a'.repeat(1024 ** 2)), ANSWER_WITHIN_MS);
    expect([answer.weirCode, answer.details]).toEqual([
      'INVALID_REGISTRATION',
      `invalid TaskManager registration: task_manager_id '${'a'.repeat(64)}…' (1048576 characters) is longer than 255 characters`,
    ]);
  });

  it('tells weir run when a bundle is larger than the JobManager accepts, and the running job was never disturbed', async () => {
    const big = writeJobFile(`${ENDLESS}\nexport const ballast = ${JSON.stringify('b'.repeat(5 * 1024 ** 2))};\n`, 'ballast.ts');
    const run = await cluster.weir(['run', big]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `^error: job bundle ballast\\.ts \\(\\d+\\.\\d MiB\\) is larger than the JobManager at ${cluster.jobManagerAddress.replace(/\./g, '\\.')} accepts \\(Received message larger than max \\(\\d+ vs ${LIMIT}\\)\\); leave large data out of the job \\(read it at run time\\), or raise jobmanager\\.rpc\\.max-message-size on the JobManager\\n$`,
      ),
    );
    const list = await cluster.weir(['list']);
    expect(list.stdout).toMatch(new RegExp(`${runningJob}.*RUNNING`));
    const cancel = await cluster.weir(['cancel', runningJob]);
    expect(cancel.code, cancel.stderr).toBe(0);
    await waitForStatus(cluster.client, runningJob, ['CANCELED']);
  });
});
