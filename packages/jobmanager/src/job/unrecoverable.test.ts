import { describe, expect, it } from 'vitest';
import { ApiErrorCode } from '@weir/api';
import { JobStatus, TaskState } from '@weir/common';
import { statuses } from '../testing/cluster.ts';
import { checkpointingCluster, settle } from '../testing/checkpointing-cluster.ts';

const RESTART = { kind: 'fixed-delay', attempts: 3, delayMs: 500 } as const;

/** A running pipeline job with a fixed-delay restart strategy that has restarts left. */
function running() {
  const c = checkpointingCluster({ 'tm-1': 2, 'tm-2': 2 }, { restartStrategy: RESTART });
  c.reportAll(TaskState.RUNNING);
  const seen = statuses(c, 'job-1');
  c.gateway.clear();
  return { ...c, seen };
}

const deploys = (c: ReturnType<typeof running>) => c.gateway.sent.filter((m) => m.message.deploy).length;

describe('failures no restart can fix', () => {
  for (const code of [ApiErrorCode.INCOMPATIBLE_STATE_SCHEMA, 'STATE_DESCRIPTOR_MISMATCH', 'RECORD_REFUSED', 'RECORD_DECODE_FAILED', 'KAFKA_TRANSACTION_ABORTED', 'KAFKA_TRANSACTION_TIMEOUT_TOO_LONG', 'BROADCAST_STATE_MISUSED', 'KEYED_STATE_ITERATION_UNSUPPORTED']) {
    it(`fails the job at once on ${code}, whatever restarts are left`, async () => {
      const c = running();
      c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: 'the state sums changed its type', code });
      expect(c.master.status).toBe(JobStatus.FAILING);
      c.reportAll(TaskState.CANCELED);
      c.clock.advance(RESTART.delayMs * 10);
      await settle();
      expect(c.seen).toEqual([JobStatus.FAILING, JobStatus.FAILED]);
      expect(c.master.failureCause).toBe('V-map (2/3) failed on TaskManager tm-2: the state sums changed its type');
      expect(c.master.attempt).toBe(0);
      expect(deploys(c)).toBe(0);
    });
  }

  it('lets such a failure decide even when a recoverable one came first', async () => {
    const c = running();
    c.report('job-1', 'tm-1', 'src#0', TaskState.FAILED, { cause: 'connection reset', code: 'TASK_FAILED' });
    c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: 'descriptor of sums differs', code: 'STATE_DESCRIPTOR_MISMATCH' });
    c.reportAll(TaskState.CANCELED);
    c.clock.advance(RESTART.delayMs);
    await settle();
    expect(c.seen).toEqual([JobStatus.FAILING, JobStatus.FAILED]);
    expect(c.master.failureCause).toBe('V-map (2/3) failed on TaskManager tm-2: descriptor of sums differs');
    expect(deploys(c)).toBe(0);
  });

  it('still restarts on any other failure code', async () => {
    const c = running();
    c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: 'boom', code: 'USER_ERROR' });
    c.reportAll(TaskState.CANCELED);
    c.clock.advance(RESTART.delayMs);
    await settle();
    c.reportAll(TaskState.RUNNING);
    expect(c.seen).toEqual([JobStatus.FAILING, JobStatus.RESTARTING, JobStatus.RUNNING]);
    expect(c.master.attempt).toBe(1);
    expect(deploys(c)).toBe(6);
  });
});
