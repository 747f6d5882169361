import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { captureContext } from '../testing/capture-context.ts';
import { startFakeJobService, type FakeJobService } from '../testing/fake-job-service.ts';
import { rejection } from '../testing/rejection.ts';
import { cancelWithSavepointCommand } from './cancel.ts';
import { disposeSavepointCommand, savepointCommand } from './savepoint.ts';
import { stopCommand } from './stop.ts';

const JOB_ID = 'abcdef'.padEnd(32, '0');
const PATH_1 = `/data/savepoints/savepoint-abcdef-00000001`;
let service: FakeJobService;

beforeEach(async () => {
  service = await startFakeJobService();
  service.details[JOB_ID] = { summary: { jobId: JOB_ID, name: 'sums', status: 'RUNNING' }, vertices: [] };
});

afterEach(async () => {
  await service.close();
});

const client = () => ({ dynamic: {}, jobManager: service.address });

describe('weir savepoint', () => {
  it('triggers a savepoint into the given directory and prints its path and checkpoint ID', async () => {
    const context = captureContext();
    await savepointCommand({ ...client(), jobId: JOB_ID, targetDirectory: '/data/savepoints' }, context);
    expect(service.savepointRequests).toEqual([{ jobId: JOB_ID, targetDirectory: '/data/savepoints', terminate: '', drain: false }]);
    expect(context.stdout).toEqual([
      `Savepoint completed. Path: ${PATH_1}`,
      `Checkpoint ID: 1. Start a job from it with \`weir run -s ${PATH_1} <job>\`.`,
    ]);
    expect(context.stderr).toEqual([`Triggering savepoint for job ${JOB_ID}…`]);
  });

  it("leaves the directory to the JobManager's state.savepoints.dir when none is given", async () => {
    service.savepointsDir = 's3://bucket/savepoints';
    service.nextCheckpointId = 42;
    const context = captureContext();
    await savepointCommand({ ...client(), jobId: JOB_ID }, context);
    expect(service.savepointRequests[0]!.targetDirectory).toBe('');
    expect(context.stdout[0]).toBe('Savepoint completed. Path: s3://bucket/savepoints/savepoint-abcdef-0000002a');
  });

  it("fails with the JobManager's error when there is no directory at all", async () => {
    const error = await rejection(savepointCommand({ ...client(), jobId: JOB_ID }, captureContext()));
    expect(error.code).toBe('SAVEPOINT_DIR_MISSING');
    expect(error.message).toBe(
      'no savepoint directory: give one with the command (`weir savepoint <jobId> <dir>`, `weir stop --savepointPath <dir>`, `weir cancel -s <dir>`) or set state.savepoints.dir in the configuration',
    );
  });

  it('fails for an unknown job', async () => {
    const error = await rejection(savepointCommand({ ...client(), jobId: 'b'.repeat(32), targetDirectory: '/d' }, captureContext()));
    expect(error.code).toBe('JOB_NOT_FOUND');
  });

  it('on a terminal, shows the savepoint in progress with its acknowledgements while it is being written, and clears the line when it is done', async () => {
    let release!: () => void;
    service.savepointGate = new Promise((resolve) => (release = resolve));
    service.checkpoints[JOB_ID] = {
      completed: 4,
      failed: 0,
      restoredFrom: 0,
      checkpoints: [{ checkpointId: 5, status: 'IN_PROGRESS', kind: 'SAVEPOINT', acknowledged: 3, totalTasks: 4 }],
    };
    const context = captureContext({}, { interactive: true });
    const done = savepointCommand({ ...client(), jobId: JOB_ID, targetDirectory: '/data/savepoints' }, context);
    await vi.waitFor(() => expect(service.savepointRequests).toHaveLength(1));
    await vi.waitFor(() => {
      context.clock.advance(250);
      expect(context.statuses.at(-1)).toContain(`Waiting for the savepoint of job ${JOB_ID}`);
      expect(context.statuses.at(-1)).toContain('savepoint 5: 3/4 acks');
    });
    release();
    await done;
    expect(context.statuses.at(-1)).toBeUndefined();
    expect(context.stderr).toEqual([`Triggering savepoint for job ${JOB_ID}…`]);
    expect(context.stdout[0]).toBe(`Savepoint completed. Path: ${PATH_1}`);
  });

  it('off a terminal, says nothing while the savepoint is being written', async () => {
    let release!: () => void;
    service.savepointGate = new Promise((resolve) => (release = resolve));
    const context = captureContext();
    const done = savepointCommand({ ...client(), jobId: JOB_ID, targetDirectory: '/data/savepoints' }, context);
    await vi.waitFor(() => expect(service.savepointRequests).toHaveLength(1));
    context.clock.advance(30_000);
    release();
    await done;
    expect(context.stderr).toEqual([`Triggering savepoint for job ${JOB_ID}…`]);
  });
});

describe('weir savepoint -d', () => {
  it('disposes a savepoint', async () => {
    service.savepoints.push(PATH_1);
    const context = captureContext();
    await disposeSavepointCommand({ ...client(), savepointPath: PATH_1 }, context);
    expect(service.savepoints).toEqual([]);
    expect(context.stdout).toEqual([`Savepoint '${PATH_1}' disposed.`]);
    expect(context.stderr).toEqual([`Disposing savepoint ${PATH_1}…`]);
  });

  it("fails with the JobManager's error for a path that is not a savepoint", async () => {
    const error = await rejection(disposeSavepointCommand({ ...client(), savepointPath: '/tmp/nothing' }, captureContext()));
    expect(error.code).toBe('NOT_A_SAVEPOINT');
    expect(error.message).toBe('/tmp/nothing is not a savepoint: it holds no _metadata; nothing was deleted');
  });
});

describe('weir stop', () => {
  it('stops with a savepoint, waits for FINISHED and then prints the path', async () => {
    service.updates[JOB_ID] = [{ jobId: JOB_ID, status: 'RUNNING' }];
    const context = captureContext();
    await stopCommand({ ...client(), jobId: JOB_ID, savepointPath: '/data/savepoints', drain: false }, context);
    expect(service.savepointRequests).toEqual([{ jobId: JOB_ID, targetDirectory: '/data/savepoints', terminate: 'STOP', drain: false }]);
    expect(context.stderr).toEqual([`Suspending job ${JOB_ID} with a savepoint…`]);
    expect(context.stdout).toEqual([
      `Savepoint completed. Path: ${PATH_1}`,
      `Checkpoint ID: 1. Start a job from it with \`weir run -s ${PATH_1} <job>\`.`,
      `Job ${JOB_ID} has finished.`,
    ]);
  });

  it('drains with --drain', async () => {
    service.savepointsDir = '/sp';
    const context = captureContext();
    await stopCommand({ ...client(), jobId: JOB_ID, drain: true }, context);
    expect(service.savepointRequests).toEqual([{ jobId: JOB_ID, targetDirectory: '', terminate: 'STOP', drain: true }]);
    expect(context.stderr).toEqual([`Draining job ${JOB_ID} with a savepoint…`]);
  });

  it('names what it waits for in each phase on a terminal', async () => {
    let release!: () => void;
    service.savepointGate = new Promise((resolve) => (release = resolve));
    const context = captureContext({}, { interactive: true });
    const done = stopCommand({ ...client(), jobId: JOB_ID, savepointPath: '/data/savepoints', drain: false }, context);
    await vi.waitFor(() => expect(service.savepointRequests).toHaveLength(1));
    context.clock.advance(250);
    release();
    await done;
    expect(context.stderr).toEqual([`Suspending job ${JOB_ID} with a savepoint…`]);
    expect(context.statuses).toContain(`⠙ Waiting for the savepoint of job ${JOB_ID} · 0.3 s`);
    expect(context.statuses.at(-1)).toBeUndefined();
  });

  it('fails with the savepoint path when the job fails after its savepoint', async () => {
    service.updates[JOB_ID] = [
      { jobId: JOB_ID, status: 'RUNNING' },
      { jobId: JOB_ID, status: 'FAILED', failureCause: 'sink (1/2): Error: disk full' },
    ];
    const error = await rejection(stopCommand({ ...client(), jobId: JOB_ID, savepointPath: '/data/savepoints', drain: false }, captureContext()));
    expect(error.code).toBe('JOB_FAILED');
    expect(error.message).toBe(
      `job ${JOB_ID} ended FAILED instead of FINISHED after its savepoint: sink (1/2): Error: disk full; the savepoint is complete at ${PATH_1}`,
    );
  });

  it('fails with the savepoint path when it loses the status stream', async () => {
    service.endsJobs = false;
    service.updates[JOB_ID] = [{ jobId: JOB_ID, status: 'RUNNING' }];
    const error = await rejection(stopCommand({ ...client(), jobId: JOB_ID, savepointPath: '/data/savepoints', drain: false }, captureContext()));
    expect(error.code).toBe('WATCH_LOST');
    expect(error.message).toBe(
      `lost track of job ${JOB_ID} while it was RUNNING, after its savepoint completed at ${PATH_1}: the JobManager ended the status stream; see \`weir info ${JOB_ID}\``,
    );
  });
});

describe('weir cancel -s', () => {
  it('cancels with a savepoint and waits for CANCELED', async () => {
    const context = captureContext();
    await cancelWithSavepointCommand({ ...client(), jobId: JOB_ID, targetDirectory: '/data/savepoints' }, context);
    expect(service.savepointRequests).toEqual([{ jobId: JOB_ID, targetDirectory: '/data/savepoints', terminate: 'CANCEL', drain: false }]);
    expect(context.stderr).toEqual([`Cancelling job ${JOB_ID} with a savepoint…`]);
    expect(context.stdout).toEqual([
      `Savepoint completed. Path: ${PATH_1}`,
      `Checkpoint ID: 1. Start a job from it with \`weir run -s ${PATH_1} <job>\`.`,
      `Cancelled job ${JOB_ID}.`,
    ]);
  });

  it('fails when the job finishes instead of being cancelled, keeping the savepoint path', async () => {
    service.updates[JOB_ID] = [{ jobId: JOB_ID, status: 'FINISHED' }];
    const error = await rejection(cancelWithSavepointCommand({ ...client(), jobId: JOB_ID, targetDirectory: '/data/savepoints' }, captureContext()));
    expect(error.code).toBe('UNEXPECTED_JOB_END');
    expect(error.message).toBe(`job ${JOB_ID} ended FINISHED instead of CANCELED after its savepoint; the savepoint is complete at ${PATH_1}`);
  });
});
