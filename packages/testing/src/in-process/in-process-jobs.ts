import { randomUUID } from 'node:crypto';
import { isTerminalTaskState, JobStatus, WeirError, type JobMain } from '@weir/common';
import type { StreamExecutionEnvironment } from '@weir/api';
import { inMemoryCheckpointing, runJob, type RunningJob } from '@weir/runtime/local-job';
import { TestingErrorCode } from '../errors.ts';

/** A job's main, as a job module's default export: `(env, args) => void`. */
export type JobFunction = JobMain<StreamExecutionEnvironment>;

/** How often the supervisor looks at the tasks (ms): the job's end, a failure, a checkpoint due. */
const TICK_MS = 10;

interface Outcome {
  readonly status: string;
  readonly failureCause: string;
}

interface LocalJob {
  readonly job: RunningJob;
  readonly intervalMs: number;
  readonly ended: Promise<Outcome>;
  nextCheckpointId: number;
  lastCheckpointAt: number;
  /** Checkpoints one at a time: the supervisor's periodic ones and `triggerCheckpoint`'s. */
  busy: Promise<unknown>;
}

/**
 * The in-process MiniCluster's jobs: each runs in this process with the runtime's own Tasks
 * (one per subtask, records between them serialized and copied as over the wire), and this
 * class does the JobManager's part: it checkpoints (memory backend, exactly once, the job's
 * interval; also the final checkpoint a task waits for at the end of its input, which commits
 * two-phase sinks such as CollectSink), triggers a checkpoint on demand, notices the end, and
 * on a task's failure cancels the rest and reports FAILED. There is no failover: a failed job
 * stays failed (the processes mode restarts).
 */
export class InProcessJobs {
  readonly #jobs = new Map<string, LocalJob>();

  constructor(private readonly taskManagers: number) {}

  /** Starts `main` and returns its job ID. */
  async submit(main: JobFunction, options: { readonly args?: readonly string[]; readonly parallelism?: number }): Promise<string> {
    const job = await runJob(main, {
      taskManagers: this.taskManagers,
      args: options.args ?? [],
      ...(options.parallelism === undefined || options.parallelism === 0 ? {} : { parallelism: options.parallelism }),
      checkpointing: inMemoryCheckpointing(),
    });
    const id = randomUUID().replaceAll('-', '');
    const local: LocalJob = {
      job,
      intervalMs: job.graph.config.checkpointing?.intervalMs ?? 0,
      ended: undefined as unknown as Promise<Outcome>,
      nextCheckpointId: 1,
      lastCheckpointAt: Date.now(),
      busy: Promise.resolve(),
    };
    (local as { ended: Promise<Outcome> }).ended = this.#supervise(local);
    this.#jobs.set(id, local);
    return id;
  }

  /** RUNNING, then the job's end (as the JobManager's WatchJob stream). */
  async *watch(jobId: string): AsyncIterable<Outcome> {
    const local = this.#job(jobId);
    yield { status: JobStatus.RUNNING, failureCause: '' };
    yield await local.ended;
  }

  /** Cancels every task; resolves with the status the job ends in. */
  async cancel(jobId: string): Promise<string> {
    const local = this.#job(jobId);
    await Promise.all(local.job.deployed.map((d) => d.task.cancel()));
    return (await local.ended).status;
  }

  /** A checkpoint now (after one in progress); resolves with its ID once every task acknowledged it and was told it completed. */
  triggerCheckpoint(jobId: string): Promise<number> {
    const local = this.#job(jobId);
    const run = local.busy.then(() => checkpointOnce(local));
    local.busy = run.catch(() => undefined);
    return run;
  }

  async #supervise(local: LocalJob): Promise<Outcome> {
    const { job } = local;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, TICK_MS));
      const failed = job.deployed.find((d) => d.task.state === 'FAILED');
      if (failed !== undefined) {
        await Promise.all(job.deployed.map((d) => d.task.cancel()));
        await job.whenAllTerminal();
        const cause = job.changes.get(failed.task)?.find((c) => c.failure !== undefined)?.failure;
        return { status: JobStatus.FAILED, failureCause: cause === undefined ? `${failed.vertexId} failed` : `${cause.code ?? ''}: ${cause.message}` };
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

  #job(jobId: string): LocalJob {
    const local = this.#jobs.get(jobId);
    if (local === undefined) throw new WeirError(TestingErrorCode.NO_SUCH_JOB, `no job ${jobId} in this in-process MiniCluster`);
    return local;
  }
}

/** Only sources are triggered, so a checkpoint needs a live source, and every live task running (not still starting). */
function mayCheckpoint(job: RunningJob): boolean {
  const live = job.deployed.filter((d) => !isTerminalTaskState(d.task.state));
  return live.some((d) => d.isSource) && live.every((d) => d.task.state === 'RUNNING');
}

/** Trigger at the sources, wait for every live task's acknowledgement, then notify: the JobManager's part of one checkpoint. */
async function checkpointOnce(local: LocalJob): Promise<number> {
  const { job } = local;
  while (!mayCheckpoint(job)) {
    if (job.deployed.every((d) => isTerminalTaskState(d.task.state)) || job.deployed.some((d) => d.task.state === 'FAILED')) {
      throw new WeirError(TestingErrorCode.CHECKPOINT_FAILED, 'the job ended before the checkpoint could be triggered');
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  const id = local.nextCheckpointId++;
  local.lastCheckpointAt = Date.now();
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
  for (const d of job.deployed) d.task.notifyCheckpointComplete(id);
  return id;
}
