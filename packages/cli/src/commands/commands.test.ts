import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WeirError } from '@weir/common';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { freePort } from '@weir/common';
import { captureContext } from '../testing/capture-context.ts';
import { startFakeJobService, type FakeJobService } from '../testing/fake-job-service.ts';
import { cancelCommand } from './cancel.ts';
import { infoCommand } from './info.ts';
import { listCommand } from './list.ts';
import { runCommand, type RunArgs } from './run.ts';
import { rejection } from '../testing/rejection.ts';

const JOB_ID = 'a'.repeat(32);
let service: FakeJobService;

beforeEach(async () => {
  service = await startFakeJobService();
});

afterEach(async () => {
  await service.close();
});

function jobFile(): { dir: string; name: string } {
  const dir = mkdtempSync(join(tmpdir(), 'weir-run-'));
  writeFileSync(join(dir, 'count.ts'), "import { Types } from '@weir/api';\nexport default function job(env: unknown) { return [env, Types]; }\n");
  return { dir, name: 'count.ts' };
}

function runArgs(overrides: Partial<RunArgs> = {}): RunArgs {
  return { dynamic: {}, jobManager: service.address, job: 'count.ts', args: [], detached: false, ...overrides };
}


describe('weir run', () => {
  it('submits the bundled job from the user directory and follows it to FINISHED', async () => {
    const { dir } = jobFile();
    service.submitResult = JOB_ID;
    service.updates[JOB_ID] = [
      { jobId: JOB_ID, status: 'CREATED' },
      { jobId: JOB_ID, status: 'RUNNING' },
      { jobId: JOB_ID, status: 'RUNNING' },
      { jobId: JOB_ID, status: 'FINISHED' },
    ];
    const context = captureContext({ INIT_CWD: dir });
    await runCommand(runArgs({ args: ['in.txt', 'out'], parallelism: 3 }), context);
    expect(service.submitted).toHaveLength(1);
    expect(service.submitted[0]!.entryName).toBe('count.ts');
    expect(service.submitted[0]!.args).toEqual(['in.txt', 'out']);
    expect(service.submitted[0]!.parallelism).toBe(3);
    expect(service.submitted[0]!.bundle.toString()).toContain('require("@weir/api")');
    expect(context.stdout).toEqual([
      `Job has been submitted with JobID ${JOB_ID}`,
      `2025-01-02 03:04:05 UTC  Job ${JOB_ID} is CREATED`,
      `2025-01-02 03:04:05 UTC  Job ${JOB_ID} is RUNNING`,
      `2025-01-02 03:04:05 UTC  Job ${JOB_ID} is FINISHED`,
      `Job ${JOB_ID} has finished.`,
    ]);
  });

  it('returns right after submitting when detached, with parallelism 0 meaning the cluster default', async () => {
    const { dir } = jobFile();
    const context = captureContext({ INIT_CWD: dir });
    await runCommand(runArgs({ detached: true }), context);
    expect(service.submitted[0]!.parallelism).toBe(0);
    expect(context.stdout).toEqual([`Job has been submitted with JobID ${'f'.repeat(32)}`]);
  });

  it('submits the savepoint to start from, with -n, and says so', async () => {
    const { dir } = jobFile();
    service.submitResult = JOB_ID;
    const context = captureContext({ INIT_CWD: dir });
    await runCommand(runArgs({ detached: true, restore: { savepointPath: '/sp/savepoint-aaaaaa-1', allowNonRestoredState: true } }), context);
    expect(service.submitted[0]!.savepointPath).toBe('/sp/savepoint-aaaaaa-1');
    expect(service.submitted[0]!.allowNonRestoredState).toBe(true);
    expect(context.stdout).toEqual([`Job has been submitted with JobID ${JOB_ID}`, 'It starts from the state of /sp/savepoint-aaaaaa-1']);
  });

  it('submits no savepoint without -s', async () => {
    const { dir } = jobFile();
    await runCommand(runArgs({ detached: true }), captureContext({ INIT_CWD: dir }));
    expect(service.submitted[0]!.savepointPath).toBe('');
    expect(service.submitted[0]!.allowNonRestoredState).toBe(false);
  });

  it("passes the JobManager's error for a path that is no savepoint through", async () => {
    const { dir } = jobFile();
    service.submitResult = new WeirError(
      'SAVEPOINT_NOT_FOUND',
      'no savepoint at /tmp/nothing: the directory does not exist or is empty; give the directory of a savepoint or retained checkpoint (the one holding _metadata)',
    );
    const error = await rejection(runCommand(runArgs({ restore: { savepointPath: '/tmp/nothing', allowNonRestoredState: false } }), captureContext({ INIT_CWD: dir })));
    expect(error.code).toBe('SAVEPOINT_NOT_FOUND');
    expect(error.message).toBe(
      'no savepoint at /tmp/nothing: the directory does not exist or is empty; give the directory of a savepoint or retained checkpoint (the one holding _metadata)',
    );
  });

  it('fails with the cause when the job fails', async () => {
    const { dir } = jobFile();
    service.submitResult = JOB_ID;
    service.updates[JOB_ID] = [{ jobId: JOB_ID, status: 'FAILED', failureCause: 'split (1/2): TypeError: boom' }];
    const error = await rejection(runCommand(runArgs(), captureContext({ INIT_CWD: dir })));
    expect(error.code).toBe('JOB_FAILED');
    expect(error.message).toBe(`job ${JOB_ID} failed: split (1/2): TypeError: boom`);
  });

  it('prints the cause of every failover with the attempt, and the restart delay', async () => {
    const { dir } = jobFile();
    service.submitResult = JOB_ID;
    const cause = 'map (1/2) failed on TaskManager tm-1: Error: boom\n    at map (/weir-job/abc/count.ts:3:9)';
    service.updates[JOB_ID] = [
      { jobId: JOB_ID, status: 'RUNNING' },
      { jobId: JOB_ID, status: 'FAILING', attempt: 0, failoverCause: cause, failoverCode: 'TASK_FAILED' },
      { jobId: JOB_ID, status: 'RESTARTING', attempt: 0, failoverCause: cause, failoverCode: 'TASK_FAILED', restartDelayMs: 1_000, restartStrategy: 'exponential-delay' },
      { jobId: JOB_ID, status: 'RUNNING', attempt: 1 },
      { jobId: JOB_ID, status: 'RESTARTING', attempt: 1, failoverCause: 'TaskManager tm-2 lost', failoverCode: 'TASK_MANAGER_LOST', restartDelayMs: 1_500, restartStrategy: 'exponential-delay' },
      { jobId: JOB_ID, status: 'RUNNING', attempt: 2 },
      { jobId: JOB_ID, status: 'FINISHED', attempt: 2 },
    ];
    const context = captureContext({ INIT_CWD: dir });
    await runCommand(runArgs(), context);
    const at = '2025-01-02 03:04:05 UTC';
    expect(context.stdout).toEqual([
      `Job has been submitted with JobID ${JOB_ID}`,
      `${at}  Job ${JOB_ID} is RUNNING`,
      `${at}  Job ${JOB_ID} is FAILING: attempt 0 failed: map (1/2) failed on TaskManager tm-1: Error: boom [TASK_FAILED] (\`weir info ${JOB_ID}\` has the rest)`,
      `${at}  Job ${JOB_ID} is RESTARTING: attempt 1 starts in 1s (restart strategy exponential-delay)`,
      `${at}  Job ${JOB_ID} is RUNNING`,
      `${at}  Job ${JOB_ID} is RESTARTING: attempt 1 failed: TaskManager tm-2 lost [TASK_MANAGER_LOST]; attempt 2 starts in 1500ms (restart strategy exponential-delay)`,
      `${at}  Job ${JOB_ID} is RUNNING`,
      `${at}  Job ${JOB_ID} is FINISHED`,
      `Job ${JOB_ID} has finished.`,
    ]);
  });

  it('says how many slots a job waits for, at once and every 10 s, while it waits', async () => {
    const { dir } = jobFile();
    service.submitResult = JOB_ID;
    service.details[JOB_ID] = { summary: { jobId: JOB_ID, name: 'wide', status: 'CREATED' }, vertices: [{ vertexId: 'v', name: 'v', parallelism: 5 }] };
    service.overview = { taskManagers: 2, slotsTotal: 4, slotsFree: 4 };
    service.updates[JOB_ID] = [{ jobId: JOB_ID, status: 'CREATED' }];
    let endWatch = () => {};
    service.watchGate = new Promise((resolve) => (endWatch = resolve));
    const context = captureContext({ INIT_CWD: dir });
    const run = rejection(runCommand(runArgs(), context));
    const waiting = `Job ${JOB_ID} is waiting for 5 slots (4 free)`;
    await vi.waitFor(() => expect(context.stdout.filter((line) => line.endsWith(waiting))).toHaveLength(1));
    context.clock.advance(10_000);
    await vi.waitFor(() => expect(context.stdout.filter((line) => line.endsWith(waiting))).toHaveLength(2));
    service.overview = { taskManagers: 3, slotsTotal: 6, slotsFree: 6 };
    context.clock.advance(10_000);
    endWatch();
    expect((await run).code).toBe('WATCH_LOST');
    expect(context.stdout.filter((line) => line.endsWith(waiting))).toHaveLength(2);
  });

  it('fails when the job is canceled', async () => {
    const { dir } = jobFile();
    service.submitResult = JOB_ID;
    service.updates[JOB_ID] = [{ jobId: JOB_ID, status: 'CANCELED' }];
    const error = await rejection(runCommand(runArgs(), captureContext({ INIT_CWD: dir })));
    expect(error.code).toBe('JOB_CANCELED');
    expect(error.message).toBe(`job ${JOB_ID} was canceled`);
  });

  it('says what the canceled job left behind', async () => {
    const { dir } = jobFile();
    service.submitResult = JOB_ID;
    service.updates[JOB_ID] = [{ jobId: JOB_ID, status: 'CANCELED' }];
    const leftBehind = "slot 'orders' is kept: SELECT pg_drop_replication_slot('orders')";
    service.details[JOB_ID] = { summary: { jobId: JOB_ID, name: 'x', status: 'CANCELED' }, vertices: [], exclusiveResources: [{ kind: 'postgres.replication-slot', scope: 'db:5432/shop', name: 'orders', description: 'slot', leftBehind }] };
    const context = captureContext({ INIT_CWD: dir });
    expect((await rejection(runCommand(runArgs(), context))).code).toBe('JOB_CANCELED');
    expect(context.stdout).toContain(`Left behind: ${leftBehind}`);
  });

  it('fails when the status stream ends before the job does', async () => {
    const { dir } = jobFile();
    service.submitResult = JOB_ID;
    service.updates[JOB_ID] = [{ jobId: JOB_ID, status: 'RUNNING' }];
    const error = await rejection(runCommand(runArgs(), captureContext({ INIT_CWD: dir })));
    expect(error.code).toBe('WATCH_LOST');
    expect(error.message).toBe(
      `lost track of job ${JOB_ID} while it was RUNNING: the JobManager ended the status stream; see \`weir info ${JOB_ID}\``,
    );
  });

  it("passes the JobManager's INVALID_JOB error through", async () => {
    const { dir } = jobFile();
    service.submitResult = new WeirError('INVALID_JOB', 'job count.ts has no default export function');
    const error = await rejection(runCommand(runArgs(), captureContext({ INIT_CWD: dir })));
    expect(error.code).toBe('INVALID_JOB');
    expect(error.message).toBe('job count.ts has no default export function');
  });

  it('uses the configured JobManager address without -m', async () => {
    const { dir } = jobFile();
    const [host, port] = service.address.split(':');
    const context = captureContext({ INIT_CWD: dir, WEIR_JOBMANAGER_RPC_ADDRESS: host, WEIR_JOBMANAGER_RPC_PORT: port });
    await runCommand(runArgs({ jobManager: undefined, detached: true }), context);
    expect(service.submitted).toHaveLength(1);
  });
});

describe('weir list, info, cancel', () => {
  it('lists jobs oldest first', async () => {
    service.jobs.push(
      { jobId: 'b'.repeat(32), name: 'second', status: 'RUNNING', startTimeMs: Date.UTC(2025, 0, 2, 10, 0, 0) },
      { jobId: 'a'.repeat(32), name: 'word-count', status: 'FINISHED', startTimeMs: Date.UTC(2025, 0, 1, 9, 30, 0) },
    );
    const context = captureContext();
    await listCommand({ dynamic: {}, jobManager: service.address }, context);
    expect(context.stdout).toEqual([
      'JOB ID                            NAME        STATUS    START TIME',
      `${'a'.repeat(32)}  word-count  FINISHED  2025-01-01 09:30:00 UTC`,
      `${'b'.repeat(32)}  second      RUNNING   2025-01-02 10:00:00 UTC`,
    ]);
  });

  it('says so when there are no jobs', async () => {
    const context = captureContext();
    await listCommand({ dynamic: {}, jobManager: service.address }, context);
    expect(context.stdout).toEqual(['No jobs.']);
  });

  it('shows a job with its vertices, operators, inputs and subtasks', async () => {
    service.details[JOB_ID] = {
      summary: { jobId: JOB_ID, name: 'word-count', status: 'FAILED', startTimeMs: Date.UTC(2025, 0, 1, 9, 30, 0), endTimeMs: Date.UTC(2025, 0, 1, 9, 31, 0) },
      failureCause: 'count (2/2): Error: disk full',
      attempt: 1,
      failovers: [
        { attempt: 1, timeMs: Date.UTC(2025, 0, 1, 9, 31, 0), code: 'TASK_FAILED', cause: 'count (2/2): Error: disk full', restarted: false },
        { attempt: 0, timeMs: Date.UTC(2025, 0, 1, 9, 30, 30), code: 'TASK_MANAGER_LOST', cause: 'TaskManager tm-3 lost: no heartbeat for 50s\nsecond line', restarted: true, restartDelayMs: 1_000 },
      ],
      vertices: [
        {
          vertexId: 'v1',
          name: 'lines -> split',
          parallelism: 2,
          maxParallelism: 128,
          operators: [
            { operatorId: '0'.repeat(32), uid: 'lines', name: 'lines' },
            { operatorId: '1'.repeat(32), uid: '', name: 'split' },
          ],
          inputs: [],
          subtasks: [
            { index: 0, state: 'FINISHED', taskManagerId: 'tm-1', initializationMs: 40 },
            { index: 1, state: 'FINISHED', taskManagerId: 'tm-2', initializationMs: 12_300 },
          ],
        },
        {
          vertexId: 'v2',
          name: 'count',
          parallelism: 2,
          maxParallelism: 128,
          operators: [{ operatorId: '2'.repeat(32), uid: 'count', name: 'count' }],
          inputs: [{ sourceVertexId: 'v1', partitioner: 'hash' }],
          subtasks: [
            { index: 0, state: 'CANCELED', taskManagerId: 'tm-1', initializationMs: 0 },
            { index: 1, state: 'FAILED', taskManagerId: 'tm-2', initializationMs: -1, failureCause: 'Error: disk full' },
          ],
        },
      ],
    };
    const context = captureContext();
    await infoCommand({ dynamic: {}, jobManager: service.address, jobId: JOB_ID, checkSlots: false }, context);
    expect(context.stdout).toEqual([
      `Job ${JOB_ID} (word-count)`,
      '  status:   FAILED (attempt 1)',
      '  started:  2025-01-01 09:30:00 UTC',
      '  ended:    2025-01-01 09:31:00 UTC',
      '  failure:  count (2/2): Error: disk full',
      '',
      'Failovers (newest first):',
      '  attempt 1 failed at 2025-01-01 09:31:00 UTC, the job FAILED: count (2/2): Error: disk full [TASK_FAILED]',
      '  attempt 0 failed at 2025-01-01 09:30:30 UTC, restarted after 1s: TaskManager tm-3 lost: no heartbeat for 50s [TASK_MANAGER_LOST]',
      '      second line',
      '',
      'Vertex lines -> split [v1]: parallelism 2, max parallelism 128',
      '  operators:',
      '    OPERATOR  UID    ID',
      `    lines     lines  ${'0'.repeat(32)}`,
      `    split     -      ${'1'.repeat(32)}`,
      '  inputs:',
      '    none (source)',
      '  subtasks:',
      '    #  STATE     TASKMANAGER  RESTORE  FAILURE',
      '    0  FINISHED  tm-1         40 ms',
      '    1  FINISHED  tm-2         12.3 s',
      '',
      'Vertex count [v2]: parallelism 2, max parallelism 128',
      '  operators:',
      '    OPERATOR  UID    ID',
      `    count     count  ${'2'.repeat(32)}`,
      '  inputs:',
      '    lines -> split (hash)',
      '  subtasks:',
      '    #  STATE     TASKMANAGER  RESTORE  FAILURE',
      '    0  CANCELED  tm-1         0 ms',
      '    1  FAILED    tm-2         -        Error: disk full',
    ]);
  });

  it.each([
    ['CANCELLING', `Cancelling job ${JOB_ID}: it is CANCELLING; \`weir info ${JOB_ID}\` shows when it is CANCELED.`],
    ['CANCELED', `Cancelled job ${JOB_ID}.`],
    ['FINISHED', `Job ${JOB_ID} had already ended: FINISHED.`],
  ])('cancels a job and reports %s', async (status, line) => {
    service.details[JOB_ID] = { summary: { jobId: JOB_ID, name: 'x', status: 'RUNNING' }, vertices: [] };
    service.cancelStatus = status;
    const context = captureContext();
    await cancelCommand({ dynamic: {}, jobManager: service.address, jobId: JOB_ID }, context);
    expect(service.cancelled).toEqual([JOB_ID]);
    expect(context.stdout).toEqual([line]);
  });

  it('prints what the cancelled job leaves behind (a kept replication slot and how to drop it)', async () => {
    const slot = { kind: 'postgres.replication-slot', scope: 'db:5432/shop', name: 'orders', description: "PostgreSQL replication slot 'orders' on db:5432/shop", leftBehind: "slot 'orders' is kept: SELECT pg_drop_replication_slot('orders')" };
    const prefix = { kind: 'postgres.transaction-id-prefix', scope: 'db:5432/shop', name: 'p', description: "prefix 'p'" };
    service.details[JOB_ID] = { summary: { jobId: JOB_ID, name: 'x', status: 'CANCELED' }, vertices: [], exclusiveResources: [slot, prefix] };
    service.cancelStatus = 'CANCELED';
    const context = captureContext();
    await cancelCommand({ dynamic: {}, jobManager: service.address, jobId: JOB_ID }, context);
    expect(context.stdout).toEqual([`Cancelled job ${JOB_ID}.`, "Left behind: slot 'orders' is kept: SELECT pg_drop_replication_slot('orders')"]);
  });

  it("passes the JobManager's error for an unknown job through", async () => {
    const error = await rejection(infoCommand({ dynamic: {}, jobManager: service.address, jobId: 'nope', checkSlots: false }, captureContext()));
    expect(error.code).toBe('JOB_NOT_FOUND');
    expect(error.message).toBe('no job with ID nope; `weir list` shows the jobs');
  });

  it('says how to start a JobManager when none answers', async () => {
    const address = `127.0.0.1:${await freePort()}`;
    const error = await rejection(listCommand({ dynamic: {}, jobManager: address }, captureContext()));
    expect(error.code).toBe('JOBMANAGER_UNREACHABLE');
    expect(error.message).toBe(`cannot reach the JobManager at ${address}: is it running? start one with \`pnpm weir cluster start\``);
  });

  it('rejects a bad config before calling anyone', async () => {
    const error = await rejection(listCommand({ dynamic: { 'jobmanager.rpc.prot': '1' } }, captureContext()));
    expect(error.code).toBe('INVALID_CONFIG');
  });
});
