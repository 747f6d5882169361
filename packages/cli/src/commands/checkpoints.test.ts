import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WeirError } from '@weir/common';
import { formatBytes, formatDuration } from '../format/checkpoints.ts';
import { captureContext } from '../testing/capture-context.ts';
import { startFakeJobService, type FakeJobService } from '../testing/fake-job-service.ts';
import { checkpointsCommand } from './checkpoints.ts';

const JOB_ID = 'c'.repeat(32);
const AT = Date.UTC(2025, 0, 2, 3, 4, 5);
let service: FakeJobService;

beforeEach(async () => {
  service = await startFakeJobService();
});

afterEach(async () => {
  await service.close();
});

describe('weir checkpoints', () => {
  it('prints the counts, the restored checkpoint and one row per checkpoint, newest first', async () => {
    service.checkpoints[JOB_ID] = {
      completed: 5,
      failed: 1,
      restoredFrom: 4,
      restoredBytes: 3 * 1024 ** 3,
      checkpoints: [
        { checkpointId: 7, status: 'IN_PROGRESS', triggerTimeMs: AT + 2_000, durationMs: 1_250, stateBytes: 512, acknowledged: 2, totalTasks: 6 },
        {
          checkpointId: 6,
          status: 'COMPLETED',
          triggerTimeMs: AT + 1_000,
          durationMs: 320,
          stateBytes: 1_536,
          checkpointedBytes: 300,
          alignmentMs: 12,
          syncMs: 3,
          acknowledged: 6,
          totalTasks: 6,
          retained: true,
        },
        {
          checkpointId: 5,
          status: 'FAILED',
          triggerTimeMs: AT,
          durationMs: 60_000,
          acknowledged: 5,
          totalTasks: 6,
          failureReason: 'CHECKPOINT_EXPIRED: checkpoint 5 expired after the checkpoint timeout of 60000 ms',
        },
      ],
    };
    const context = captureContext();
    await checkpointsCommand({ dynamic: {}, jobManager: service.address, jobId: JOB_ID }, context);
    expect(context.stdout).toEqual([
      `Checkpoints of job ${JOB_ID}: 5 completed, 1 failed`,
      'Restored from: checkpoint 4 (3.0 GiB)',
      '',
      'ID  KIND  STATUS       TRIGGER TIME             DURATION  STATE SIZE  CHECKPOINTED  TYPE     IN-FLIGHT  ALIGNMENT  SYNC  ACKS  FAILURE',
      '7   -     IN_PROGRESS  2025-01-02 03:04:07 UTC  1.3 s     512 B       0 B           aligned  0 B        0 ms       0 ms  2/6',
      '6   -     COMPLETED    2025-01-02 03:04:06 UTC  320 ms    1.5 KiB     300 B         aligned  0 B        12 ms      3 ms  6/6',
      '5   -     FAILED       2025-01-02 03:04:05 UTC  1m 00s    0 B         0 B           aligned  0 B        0 ms       0 ms  5/6   CHECKPOINT_EXPIRED: checkpoint 5 expired after the checkpoint timeout of 60000 ms',
    ]);
  });

  it('says what the last sweep found left behind in the checkpoint directory, once one counted', async () => {
    const lines = async (counted: object): Promise<string[]> => {
      service.checkpoints[JOB_ID] = { completed: 1, failed: 0, restoredFrom: 0, checkpoints: [], ...counted };
      const context = captureContext();
      await checkpointsCommand({ dynamic: {}, jobManager: service.address, jobId: JOB_ID }, context);
      return context.stdout.slice(1, -1);
    };
    expect(await lines({})).toEqual(['Restored from: none (the job started without state)']);
    expect(await lines({ leftBehindCounted: true })).toEqual(['Restored from: none (the job started without state)', 'Left behind: none (every file in the checkpoint directory belongs to a checkpoint)']);
    expect(await lines({ leftBehindCounted: true, leftBehindFiles: 3, leftBehindBytes: 5 * 1024 ** 2 })).toEqual([
      'Restored from: none (the job started without state)',
      'Left behind: 3 files, 5.0 MiB, in the checkpoint directory that no checkpoint uses',
    ]);
  });

  it('shows the kind, savepoint or checkpoint, whether a checkpoint was unaligned and the in-flight bytes it persisted', async () => {
    service.checkpoints[JOB_ID] = {
      completed: 3,
      failed: 0,
      restoredFrom: 0,
      checkpoints: [
        { checkpointId: 12, kind: 'SAVEPOINT', status: 'COMPLETED', triggerTimeMs: AT + 2_000, durationMs: 80, stateBytes: 2_048, acknowledged: 4, totalTasks: 4 },
        {
          checkpointId: 11,
          kind: 'CHECKPOINT',
          status: 'COMPLETED',
          triggerTimeMs: AT + 1_000,
          durationMs: 45,
          stateBytes: 2_048,
          unaligned: true,
          persistedBytes: 3 * 1024 * 1024,
          acknowledged: 4,
          totalTasks: 4,
        },
        { checkpointId: 10, kind: 'CHECKPOINT', status: 'COMPLETED', triggerTimeMs: AT, durationMs: 900, stateBytes: 2_000, alignmentMs: 850, acknowledged: 4, totalTasks: 4 },
      ],
    };
    const context = captureContext();
    await checkpointsCommand({ dynamic: {}, jobManager: service.address, jobId: JOB_ID }, context);
    expect(context.stdout.slice(3)).toEqual([
      'ID  KIND        STATUS     TRIGGER TIME             DURATION  STATE SIZE  CHECKPOINTED  TYPE       IN-FLIGHT  ALIGNMENT  SYNC  ACKS  FAILURE',
      '12  SAVEPOINT   COMPLETED  2025-01-02 03:04:07 UTC  80 ms     2.0 KiB     0 B           aligned    0 B        0 ms       0 ms  4/4',
      '11  CHECKPOINT  COMPLETED  2025-01-02 03:04:06 UTC  45 ms     2.0 KiB     0 B           unaligned  3.0 MiB    0 ms       0 ms  4/4',
      '10  CHECKPOINT  COMPLETED  2025-01-02 03:04:05 UTC  900 ms    2.0 KiB     0 B           aligned    0 B        850 ms     0 ms  4/4',
    ]);
  });

  it('says when a job has taken no checkpoints and started without state', async () => {
    service.checkpoints[JOB_ID] = { completed: 0, failed: 0, restoredFrom: 0, checkpoints: [] };
    const context = captureContext();
    await checkpointsCommand({ dynamic: {}, jobManager: service.address, jobId: JOB_ID }, context);
    expect(context.stdout).toEqual([`Checkpoints of job ${JOB_ID}: 0 completed, 0 failed`, 'Restored from: none (the job started without state)', 'No checkpoints.']);
  });

  it("passes the JobManager's error for an unknown job through", async () => {
    const error = await checkpointsCommand({ dynamic: {}, jobManager: service.address, jobId: 'nope' }, captureContext()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WeirError);
    expect((error as WeirError).code).toBe('JOB_NOT_FOUND');
  });

  it('shows sizes in binary units and durations in ms, s or minutes', () => {
    expect([0, 1_023, 1_024, 1_536, 5 * 1024 * 1024, 3 * 1024 ** 3].map(formatBytes)).toEqual(['0 B', '1023 B', '1.0 KiB', '1.5 KiB', '5.0 MiB', '3.0 GiB']);
    expect([0, 999, 1_000, 59_949, 60_000, 245_000].map(formatDuration)).toEqual(['0 ms', '999 ms', '1.0 s', '59.9 s', '1m 00s', '4m 05s']);
  });
});
