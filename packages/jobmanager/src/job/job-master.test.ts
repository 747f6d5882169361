import { describe, expect, it } from 'vitest';
import { JobStatus, TaskState, WeirError, isWeirError, type TaskState as TaskStateName } from '@weir/common';
import { SLOT_TIMEOUT, cluster, pipeline, placement, statuses } from '../testing/cluster.ts';
import { PLAIN_JOB_SETTINGS, jobGraph, jobSpec, vertex } from '../testing/fixtures.ts';

describe('JobMaster lifecycle', () => {
  function running() {
    const c = cluster({ 'tm-1': 2, 'tm-2': 2 });
    const job = c.dispatcher.submit(jobSpec(pipeline));
    for (const p of placement) {
      const [task, tm] = p.split('@');
      c.report('job-1', tm!, task!, TaskState.RUNNING);
    }
    const seen = statuses(c, 'job-1');
    c.gateway.clear();
    return { c, job, seen };
  }

  it('is RUNNING only once every subtask runs, its state restored: CREATED while they initialize, RESTARTING while a new attempt does', () => {
    const c = cluster({ 'tm-1': 2, 'tm-2': 2 });
    const job = c.dispatcher.submit(jobSpec(pipeline, 'job-1', { ...PLAIN_JOB_SETTINGS, restartStrategy: { kind: 'fixed-delay', attempts: 1, delayMs: 0 } }));
    const seen = statuses(c, 'job-1');
    const report = (state: TaskStateName, except = '') => {
      for (const p of placement) {
        const [task, tm] = p.split('@');
        if (task !== except) c.report('job-1', tm!, task!, state, { attempt: job.attempt });
      }
    };
    report(TaskState.INITIALIZING);
    // Every subtask but one restored its state: the job is not RUNNING yet, and no checkpoint may start.
    report(TaskState.RUNNING, 'map#1');
    expect(job.status).toBe(JobStatus.CREATED);
    c.clock.advance(2_000);
    c.report('job-1', 'tm-2', 'map#1', TaskState.RUNNING);
    expect(job.status).toBe(JobStatus.RUNNING);
    expect(job.statusTimestamps()[JobStatus.RUNNING]).toBe(3_000);
    expect(job.subtasks().map((s) => s.timestamps.RUNNING! - s.timestamps.INITIALIZING!)).toEqual([0, 0, 0, 2_000, 0, 0]);
    // A subtask of a new attempt that is still restoring keeps the job RESTARTING.
    c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: 'boom' });
    report(TaskState.CANCELED, 'map#1');
    c.clock.advance(0);
    report(TaskState.RUNNING, 'sink#0');
    expect(job.attempt).toBe(1);
    expect(job.status).toBe(JobStatus.RESTARTING);
    c.report('job-1', 'tm-1', 'sink#0', TaskState.RUNNING, { attempt: 1 });
    expect(seen).toEqual([JobStatus.RUNNING, JobStatus.FAILING, JobStatus.RESTARTING, JobStatus.RUNNING]);
  });

  it('finishes when every subtask has finished, and frees the slots', () => {
    const { c, job, seen } = running();
    c.clock.advance(700);
    for (const p of placement) {
      expect(job.status).toBe(JobStatus.RUNNING);
      const [task, tm] = p.split('@');
      c.report('job-1', tm!, task!, TaskState.FINISHED);
    }
    expect(job.status).toBe(JobStatus.FINISHED);
    expect(seen).toEqual([JobStatus.FINISHED]);
    expect(job.failureCause).toBe('');
    expect(job.startTimeMs).toBe(1_000);
    expect(job.endTimeMs).toBe(1_700);
    expect(c.slotPool.stats().free).toBe(4);
    expect(c.gateway.sent).toEqual([]);
  });

  it('on a failed subtask cancels the others and fails with the first failure as root cause', () => {
    const { c, job, seen } = running();
    c.report('job-1', 'tm-1', 'sink#0', TaskState.FINISHED);
    c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: 'Error: boom\n    at map (job.js:3:9)', code: 'USER_ERROR' });
    expect(job.status).toBe(JobStatus.FAILING);
    expect(c.gateway.canceled()).toEqual(['src#0@tm-1', 'src#1@tm-2', 'map#0@tm-1', 'map#2@tm-1']);
    c.report('job-1', 'tm-1', 'map#0', TaskState.FAILED, { cause: 'input failed' });
    c.report('job-1', 'tm-1', 'src#0', TaskState.CANCELED);
    c.report('job-1', 'tm-2', 'src#1', TaskState.CANCELED);
    expect(job.status).toBe(JobStatus.FAILING);
    c.report('job-1', 'tm-1', 'map#2', TaskState.CANCELED);
    expect(job.status).toBe(JobStatus.FAILED);
    expect(seen).toEqual([JobStatus.FAILING, JobStatus.FAILED]);
    expect(job.failureCause).toBe('V-map (2/3) failed on TaskManager tm-2: Error: boom\n    at map (job.js:3:9)');
    expect(job.subtasks().map((s) => `${s.vertexId}#${s.index}:${s.state}:${s.failureCause}`)).toEqual([
      'src#0:CANCELED:',
      'src#1:CANCELED:',
      'map#0:FAILED:input failed',
      'map#1:FAILED:Error: boom\n    at map (job.js:3:9) [USER_ERROR]',
      'map#2:CANCELED:',
      'sink#0:FINISHED:',
    ]);
    expect(c.slotPool.stats().free).toBe(4);
  });

  it('fails at once when the failed subtask was the last one running', () => {
    const c = cluster({ 'tm-1': 1 });
    const job = c.dispatcher.submit(jobSpec(jobGraph(vertex('src', 1))));
    c.report('job-1', 'tm-1', 'src#0', TaskState.FAILED, { cause: 'bad' });
    expect(job.status).toBe(JobStatus.FAILED);
    expect(job.failureCause).toBe('V-src (1/1) failed on TaskManager tm-1: bad');
    expect(c.gateway.canceled()).toEqual([]);
  });

  it('cancels: CANCELLING until every subtask has ended, then CANCELED', () => {
    const { c, job, seen } = running();
    c.report('job-1', 'tm-1', 'sink#0', TaskState.FINISHED);
    expect(c.dispatcher.cancel('job-1')).toBe(JobStatus.CANCELLING);
    expect(c.gateway.canceled()).toEqual(['src#0@tm-1', 'src#1@tm-2', 'map#0@tm-1', 'map#1@tm-2', 'map#2@tm-1']);
    expect(c.dispatcher.cancel('job-1')).toBe(JobStatus.CANCELLING);
    expect(c.gateway.canceled()).toHaveLength(5);
    c.report('job-1', 'tm-1', 'map#0', TaskState.RUNNING);
    expect(job.subtasks()[2]!.state).toBe(TaskState.CANCELING);
    for (const p of ['src#0@tm-1', 'src#1@tm-2', 'map#0@tm-1', 'map#1@tm-2']) {
      const [task, tm] = p.split('@');
      c.report('job-1', tm!, task!, TaskState.CANCELED);
    }
    expect(job.status).toBe(JobStatus.CANCELLING);
    c.report('job-1', 'tm-1', 'map#2', TaskState.FAILED, { cause: 'interrupted' });
    expect(job.status).toBe(JobStatus.CANCELED);
    expect(seen).toEqual([JobStatus.CANCELLING, JobStatus.CANCELED]);
    expect(job.failureCause).toBe('');
    expect(c.dispatcher.cancel('job-1')).toBe(JobStatus.CANCELED);
  });

  it('cancels a job still waiting for slots at once', () => {
    const c = cluster({});
    const job = c.dispatcher.submit(jobSpec(pipeline));
    expect(c.dispatcher.cancel('job-1')).toBe(JobStatus.CANCELED);
    c.addTaskManager('tm-1', 4);
    c.clock.advance(SLOT_TIMEOUT);
    expect(job.status).toBe(JobStatus.CANCELED);
    expect(c.gateway.sent).toEqual([]);
  });

  it('stops waiting for slots when the JobManager shuts down', () => {
    const c = cluster({});
    const job = c.dispatcher.submit(jobSpec(pipeline));
    c.dispatcher.shutDown();
    c.clock.advance(SLOT_TIMEOUT * 2);
    expect(job.status).toBe(JobStatus.CREATED);
  });

  it('rejects an unknown job ID with JOB_NOT_FOUND naming it', () => {
    const c = cluster({});
    try {
      c.dispatcher.cancel('nope');
      expect.unreachable();
    } catch (err) {
      expect(isWeirError(err, 'JOB_NOT_FOUND')).toBe(true);
      expect((err as Error).message).toContain("'nope'");
    }
  });

  it('fails the job when a TaskManager with its subtasks is lost', () => {
    const { c, job, seen } = running();
    c.loseTaskManager('tm-2', 'heartbeat timeout');
    expect(job.status).toBe(JobStatus.FAILING);
    expect(c.gateway.canceled()).toEqual(['src#0@tm-1', 'map#0@tm-1', 'map#2@tm-1', 'sink#0@tm-1']);
    expect(job.subtasks().filter((s) => s.taskManagerId === 'tm-2').map((s) => `${s.state}:${s.failureCause}`)).toEqual([
      'FAILED:TaskManager tm-2 lost: heartbeat timeout',
      'FAILED:TaskManager tm-2 lost: heartbeat timeout',
    ]);
    c.loseTaskManager('tm-1', 'connection closed');
    expect(job.status).toBe(JobStatus.FAILED);
    expect(seen).toEqual([JobStatus.FAILING, JobStatus.FAILED]);
    expect(job.failureCause).toBe('TaskManager tm-2 lost: heartbeat timeout');
  });

  it('ignores the loss of a TaskManager it has no subtask on', () => {
    const c = cluster({ 'tm-1': 1, 'tm-2': 1 });
    const job = c.dispatcher.submit(jobSpec(jobGraph(vertex('src', 1))));
    c.report('job-1', 'tm-1', 'src#0', TaskState.RUNNING);
    c.loseTaskManager('tm-2', 'connection closed');
    expect(job.status).toBe(JobStatus.RUNNING);
  });

  it('counts the subtasks of a TaskManager lost while cancelling as ended', () => {
    const { c, job } = running();
    c.dispatcher.cancel('job-1');
    for (const task of ['src#0', 'map#0', 'map#2', 'sink#0']) c.report('job-1', 'tm-1', task, TaskState.CANCELED);
    expect(job.status).toBe(JobStatus.CANCELLING);
    c.loseTaskManager('tm-2', 'connection closed');
    expect(job.status).toBe(JobStatus.CANCELED);
  });

  it('ignores updates of another attempt, from another TaskManager, or with an unknown state', () => {
    const { c, job } = running();
    c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { attempt: 1, cause: 'old' });
    c.report('job-1', 'tm-1', 'map#1', TaskState.FAILED, { cause: 'wrong TaskManager' });
    c.report('job-1', 'tm-2', 'map#1', 'EXPLODED' as TaskStateName);
    c.report('job-x', 'tm-2', 'map#1', TaskState.FAILED);
    expect(job.status).toBe(JobStatus.RUNNING);
    expect(job.subtasks().map((s) => s.state)).toEqual(Array(6).fill(TaskState.RUNNING));
  });

  it('handles a TaskManager answering a cancel synchronously', () => {
    const { c, job } = running();
    const send = c.gateway.send.bind(c.gateway);
    c.gateway.send = (tm, message) => {
      const ok = send(tm, message);
      const task = message.cancel?.task;
      if (task) c.report('job-1', tm, `${task.vertexId}#${task.subtaskIndex}`, TaskState.CANCELED);
      return ok;
    };
    expect(c.dispatcher.cancel('job-1')).toBe(JobStatus.CANCELED);
    expect(job.subtasks().map((s) => s.state)).toEqual(Array(6).fill(TaskState.CANCELED));
  });
});

describe("JobMaster and the job's worker", () => {
  function withUserCode() {
    const c = cluster({ 'tm-1': 2, 'tm-2': 2 });
    const listeners: ((cause: WeirError) => void)[] = [];
    let closed = 0;
    const userCode = {
      onDeath: (listener: (cause: WeirError) => void) => void listeners.push(listener),
      close: async () => void closed++,
      enumerators: (): never => {
        throw new Error('the job has no split sources');
      },
      jobEnded: async () => [],
    };
    const job = c.dispatcher.submit(jobSpec(pipeline), undefined, { userCode });
    for (const p of placement) {
      const [task, tm] = p.split('@');
      c.report('job-1', tm!, task!, TaskState.RUNNING);
    }
    return { c, job, die: (cause: WeirError) => listeners.forEach((l) => l(cause)), closed: () => closed };
  }

  it("fails the running job over with the worker's death as root cause", () => {
    const { c, job, die } = withUserCode();
    die(new WeirError('USER_CODE_FAILED', "the job's worker on the JobManager ended with exit code 1"));
    expect(job.status).toBe(JobStatus.FAILING);
    for (const p of placement) {
      const [task, tm] = p.split('@');
      c.report('job-1', tm!, task!, TaskState.CANCELED);
    }
    expect(job.status).toBe(JobStatus.FAILED);
    expect(job.failureCause).toBe("the job's worker on the JobManager ended with exit code 1");
  });

  it('closes the worker when the job ends', () => {
    const { job, closed } = withUserCode();
    expect(closed()).toBe(0);
    job.cancel();
    expect(job.status).toBe(JobStatus.CANCELLING);
    expect(closed()).toBe(0);
    const { c: c2, job: job2, closed: closed2 } = withUserCode();
    for (const p of placement) {
      const [task, tm] = p.split('@');
      c2.report('job-1', tm!, task!, TaskState.FINISHED);
    }
    expect(job2.status).toBe(JobStatus.FINISHED);
    expect(closed2()).toBe(1);
  });
});
