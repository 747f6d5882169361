import { createHash } from 'node:crypto';
import { describeError, JobStatus, type Logger } from '@weir/common';
import { HaJobStatus, type EtcdHaServices, type HaCheckpointStore, type LeadershipTerm } from '@weir/ha';
import { cleanUpJob, retrying } from './job-cleanup.ts';
import type { JobCheckpointHa, LeaderHa, SubmittedJob } from './leader-ha.ts';


/** LeaderHa on etcd for one leadership term. */
export class EtcdLeaderHa implements LeaderHa {
  constructor(
    private readonly services: EtcdHaServices,
    readonly term: LeadershipTerm,
    private readonly logger: Logger,
  ) {}

  get epoch(): number {
    return this.term.epoch;
  }

  async jobSubmitted(job: SubmittedJob, jobName: string): Promise<void> {
    const bundleHash = createHash('sha256').update(job.bundle).digest('hex');
    const { bundle, ...rest } = job;
    await this.services.jobs.add(this.term, { ...rest, jobName, bundleHash }, bundle);
  }

  async checkpoints(jobId: string, restoredId: number): Promise<JobCheckpointHa> {
    const store = this.services.checkpoints(jobId, this.term, this.logger.child({ jobId }));
    await store.recover();
    await store.raiseTo(restoredId);
    const ha = new PrefetchingCheckpointHa(store, this.term, this.logger.child({ jobId }));
    await ha.prefetch();
    return ha;
  }

  async jobEnded(jobId: string, jobName: string, status: JobStatus, failureCause: string, submittedAtMs: number): Promise<void> {
    const record = { jobId, jobName, status: status as HaJobStatus, submittedAtMs, endedAtMs: Date.now(), failureCause: status === JobStatus.FAILED ? failureCause : '', dirty: true };
    await retrying(this.term, this.logger.child({ jobId }), `record the job as ${status}`, () => this.services.jobs.put(this.term, record));
    await cleanUpJob(this.services, this.term, record, this.logger);
  }

  async cancelRequested(jobId: string, jobName: string, submittedAtMs: number): Promise<void> {
    await this.services.jobs.put(this.term, { jobId, jobName, status: HaJobStatus.CANCELLING, submittedAtMs, endedAtMs: 0, failureCause: '', dirty: false });
  }

}

/** Keeps one checkpoint ID reserved in etcd ahead, so a trigger never waits for etcd. */
class PrefetchingCheckpointHa implements JobCheckpointHa {
  #next: number | undefined;
  #reserving: Promise<void> | undefined;
  /** Set while reservations fail, so an etcd outage is logged once, not at every trigger. */
  #failing = false;

  constructor(
    private readonly store: HaCheckpointStore,
    private readonly term: LeadershipTerm,
    private readonly logger: Logger,
  ) {}

  prefetch(): Promise<void> {
    if (this.#reserving !== undefined) return this.#reserving;
    const reserving = this.store.reserveId().then(
      (id: number) => {
        this.#next = id;
        if (this.#failing) this.logger.info({ checkpointId: id }, 'checkpoint IDs can be reserved in etcd again');
        this.#failing = false;
      },
      (err: unknown) => {
        if (!this.#failing) this.logger.warn({ err: describeError(err) }, 'could not reserve the next checkpoint ID in etcd; checkpoints are skipped until etcd answers');
        this.#failing = true;
      },
    );
    this.#reserving = reserving.finally(() => (this.#reserving = undefined));
    return this.#reserving;
  }

  available(): boolean {
    return this.#next !== undefined;
  }

  nextId(): number | undefined {
    const id = this.#next;
    this.#next = undefined;
    void this.prefetch();
    return id;
  }

  mayWrite(): boolean {
    return this.term.valid;
  }

  register(checkpointId: number, path: string, timestamp: number, oldestRetained: number): Promise<void> {
    return this.store.register({ checkpointId, path, timestamp }, oldestRetained);
  }
}
