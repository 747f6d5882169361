import { randomUUID } from 'node:crypto';
import { isTerminalTaskState, JobStatus, WeirError, type JobMain } from '@weir/common';
import type { StreamExecutionEnvironment } from '@weir/api';
import { inMemoryCheckpointing, restoreFrom, runJob, type JobOptions, type RunningJob, type TaskRestore } from '@weir/runtime/local-job';
import { TestingErrorCode } from '../errors.ts';
import { restartDecision } from './in-process-restart.ts';

/** A job's main, as a job module's default export: `(env, args) => void`. */
export type JobFunction = JobMain<StreamExecutionEnvironment>;

/** How often the supervisor looks at the tasks (ms): the job's end, a failure, a checkpoint due. */
const TICK_MS = 10;

/**
 * A completed in-memory checkpoint: each task's share and the split enumerators' states. Here,
 * not beside restartDecision: @weir/testing's published types may not name @weir/runtime,
 * which publishes none (scripts/pack.mjs checks).
 */
interface LastCheckpoint {
  readonly checkpointId: number;
  readonly restore: (vertexId: string, subtask: number) => TaskRestore;
  readonly enumerators: ReadonlyMap<string, unknown>;
}

interface Outcome {
  readonly status: string;
  readonly failureCause: string;
}

interface LocalJob {
  readonly main: JobFunction;
  readonly options: JobOptions;
  /** The running attempt's tasks; replaced at each restart. */
  job: RunningJob;
  attempt: number;
  readonly intervalMs: number;
  /** Every status the job passed through, in order; the last is terminal once it ended. */
  readonly statuses: Outcome[];
  nextCheckpointId: number;
  lastCheckpointAt: number;
  /** The latest completed checkpoint: what a restart restores. */
  completed: LastCheckpoint | undefined;
  /** Checkpoints one at a time: the supervisor's periodic ones and `triggerCheckpoint`'s. */
  busy: Promise<unknown>;
}

/**
 * The in-process MiniCluster's jobs: each runs in this process with the runtime's own Tasks
 * (one per subtask, records between them serialized and copied as over the wire), and this
 * class does the JobManager's part: it checkpoints (memory backend, exactly once, the job's
 * interval; also the final checkpoint a task waits for at the end of its input, which commits
 * two-phase sinks such as CollectSink), triggers a checkpoint on demand, notices the end, and
 * on a task's failure cancels the rest and, as the job's restart strategy allows, restarts
 * every task from the latest completed checkpoint kept in memory (Flink's MiniCluster
 * failover: RESTARTING, then RUNNING again), else reports FAILED.
 */
export class InProcessJobs {
  readonly #jobs = new Map<string, LocalJob>();

  constructor(private readonly taskManagers: number) {}

  /** Starts `main` and returns its job ID. */
  async submit(main: JobFunction, options: { readonly args?: readonly string[]; readonly parallelism?: number }): Promise<string> {
    const jobOptions: JobOptions = {
      taskManagers: this.taskManagers,
      args: options.args ?? [],
      ...(options.parallelism === undefined || options.parallelism === 0 ? {} : { parallelism: options.parallelism }),
      checkpointing: inMemoryCheckpointing(),
    };
    const job = await runJob(main, jobOptions);
    const id = randomUUID().replaceAll('-', '');
    const local: LocalJob = {
      main,
      options: jobOptions,
      job,
      attempt: 0,
      intervalMs: job.graph.config.checkpointing?.intervalMs ?? 0,
      statuses: [{ status: JobStatus.RUNNING, failureCause: '' }],
      nextCheckpointId: 1,
      lastCheckpointAt: Date.now(),
      completed: undefined,
      busy: Promise.resolve(),
    };
    void this.#supervise(local).then((outcome) => local.statuses.push(outcome));
    this.#jobs.set(id, local);
    return id;
  }

  /** Every status change until the job's end (as the JobManager's WatchJob stream). */
  async *watch(jobId: string): AsyncIterable<Outcome> {
    const local = this.#job(jobId);
    for (let seen = 0; ; ) {
      while (seen < local.statuses.length) {
        const update = local.statuses[seen++]!;
        yield update;
        if (isEnd(update.status)) return;
      }
      await new Promise((resolve) => setTimeout(resolve, TICK_MS));
    }
  }

  /** Cancels every task; resolves with the status the job ends in. */
  async cancel(jobId: string): Promise<string> {
    const local = this.#job(jobId);
    local.statuses.push({ status: JobStatus.CANCELLING, failureCause: '' });
    await Promise.all(local.job.deployed.map((d) => d.task.cancel()));
    for await (const update of this.watch(jobId)) if (isEnd(update.status)) return update.status;
    return JobStatus.CANCELED;
  }

  /** A checkpoint now (after one in progress); resolves with its ID once every task acknowledged it and was told it completed. */
  triggerCheckpoint(jobId: string): Promise<number> {
    const local = this.#job(jobId);
    const run = local.busy.then(() => checkpointOnce(local));
    local.busy = run.catch(() => undefined);
    return run;
  }

  /**
   * Fails subtask `subtask` of the vertex named `vertexName` (or whose name starts with it, as
   * `Source: numbers`) from outside, as a task that threw: the job fails over by its restart
   * strategy. NO_SUCH_TASK when the job has no such running task.
   */
  failTask(jobId: string, vertexName: string, subtask = 0): void {
    const { job } = this.#job(jobId);
    const names = [...job.tasks.keys()];
    const name = names.find((n) => n === vertexName) ?? names.find((n) => n.includes(vertexName));
    const task = name === undefined ? undefined : job.tasks.get(name)?.[subtask];
    if (task === undefined || isTerminalTaskState(task.state)) {
      throw new WeirError(TestingErrorCode.NO_SUCH_TASK, `failTask: job ${jobId} has no running subtask ${subtask} of '${vertexName}'; its vertices: ${names.join(', ')}`);
    }
    task.failExternally(new WeirError(TestingErrorCode.TASK_FAILED_BY_TEST, `failTask(${JSON.stringify(vertexName)}, ${subtask}): failed by the test`));
  }

  async #supervise(local: LocalJob): Promise<Outcome> {
    for (let failures = 0; ; ) {
      await new Promise((resolve) => setTimeout(resolve, TICK_MS));
      const { job } = local;
      const failed = job.deployed.find((d) => d.task.state === 'FAILED');
      if (failed !== undefined) {
        await Promise.all(job.deployed.map((d) => d.task.cancel()));
        await job.whenAllTerminal();
        await local.busy;
        const cause = job.changes.get(failed.task)?.find((c) => c.failure !== undefined)?.failure;
        const failureCause = cause === undefined ? `${failed.vertexId} failed` : `${cause.code ?? ''}: ${cause.message}`;
        const restart = restartDecision(job.graph.config, ++failures);
        if (restart === undefined) return { status: JobStatus.FAILED, failureCause };
        local.statuses.push({ status: JobStatus.RESTARTING, failureCause });
        await new Promise((resolve) => setTimeout(resolve, restart.delayMs));
        await this.#restart(local);
        local.statuses.push({ status: JobStatus.RUNNING, failureCause: '' });
        continue;
      }
      const live = job.deployed.filter((d) => !isTerminalTaskState(d.task.state));
      if (live.length === 0) {
        const finished = job.deployed.every((d) => d.task.state === 'FINISHED');
        return { status: finished ? JobStatus.FINISHED : JobStatus.CANCELED, failureCause: '' };
      }
      // A checkpoint is due by the job's interval, or a task waits for its final one.
      const due = local.intervalMs > 0 && Date.now() - local.lastCheckpointAt >= local.intervalMs;
      const waiting = live.some((d) => job.awaitingFinal.has(d.task));
      if ((due || waiting) && mayCheckpoint(job)) {
        const run = local.busy.then(() => checkpointOnce(local));
        local.busy = run.catch(() => undefined);
        await local.busy;
      }
    }
  }

  /** Every task again as a new attempt, from the latest completed checkpoint (or from scratch without one). */
  async #restart(local: LocalJob): Promise<void> {
    await local.job.coordinator.close();
    const completed = local.completed;
    local.attempt++;
    local.job = await runJob(local.main, {
      ...local.options,
      attempt: local.attempt,
      ...(completed === undefined ? {} : { restore: completed.restore, enumeratorState: (operatorId: string) => completed.enumerators.get(operatorId) }),
    });
    local.lastCheckpointAt = Date.now();
  }

  #job(jobId: string): LocalJob {
    const local = this.#jobs.get(jobId);
    if (local === undefined) throw new WeirError(TestingErrorCode.NO_SUCH_JOB, `no job ${jobId} in this in-process MiniCluster`);
    return local;
  }
}

function isEnd(status: string): boolean {
  return status === JobStatus.FINISHED || status === JobStatus.FAILED || status === JobStatus.CANCELED;
}

/** Only sources are triggered, so a checkpoint needs a live source, and every live task running (not still starting). */
function mayCheckpoint(job: RunningJob): boolean {
  const live = job.deployed.filter((d) => !isTerminalTaskState(d.task.state));
  return live.some((d) => d.isSource) && live.every((d) => d.task.state === 'RUNNING');
}

/**
 * Trigger at the sources, wait for every live task's acknowledgement, keep it as the restore
 * point, then notify: the JobManager's part of one checkpoint. The split enumerators' states
 * are taken before the trigger, as the JobManager's coordinator does.
 */
async function checkpointOnce(local: LocalJob): Promise<number> {
  const { job } = local;
  while (!mayCheckpoint(job)) {
    if (job !== local.job || job.deployed.every((d) => isTerminalTaskState(d.task.state)) || job.deployed.some((d) => d.task.state === 'FAILED')) {
      throw new WeirError(TestingErrorCode.CHECKPOINT_FAILED, 'the job ended or failed before the checkpoint could be triggered');
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  const id = local.nextCheckpointId++;
  local.lastCheckpointAt = Date.now();
  const enumerators = job.coordinator.snapshot(id);
  for (const d of job.deployed) if (d.isSource && !isTerminalTaskState(d.task.state)) d.task.triggerCheckpoint(id, Date.now());
  for (;;) {
    const decline = job.declines.find((d) => d.decline.checkpointId === id);
    const failed = job.deployed.some((d) => d.task.state === 'FAILED' || d.task.state === 'CANCELED');
    if (decline !== undefined || failed) {
      for (const d of job.deployed) d.task.notifyCheckpointAborted(id);
      throw new WeirError(TestingErrorCode.CHECKPOINT_FAILED, `checkpoint ${id} ${decline === undefined ? 'was aborted: a task failed or was canceled' : `was declined: ${JSON.stringify(decline.decline)}`}`);
    }
    const acked = job.acks.get(id);
    if (job.deployed.every((d) => d.task.state === 'FINISHED' || acked?.has(d.task) === true)) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  local.completed = { checkpointId: id, restore: restoreFrom(job, id, undefined), enumerators };
  for (const d of job.deployed) d.task.notifyCheckpointComplete(id);
  return id;
}
