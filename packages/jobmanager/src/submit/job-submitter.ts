import { randomBytes } from 'node:crypto';
import type { Logger, WeirConfig } from '@weir/common';
import type { SubmitJobRequest__Output, SubmitJobResponse } from '@weir/rpc';
import type { BlobStore } from '../blob/blob-store.ts';
import type { Dispatcher } from '../dispatcher.ts';
import type { JobDefaults } from '../job/job-spec.ts';
import type { JobPlanner } from './job-planner.ts';

/** Handles SubmitJob: plan the job, keep its bundle, hand it to a new JobMaster. */
export class JobSubmitter {
  constructor(
    private readonly planner: JobPlanner,
    private readonly blobStore: BlobStore,
    private readonly dispatcher: Dispatcher,
    private readonly config: WeirConfig,
    private readonly logger: Logger,
  ) {}

  /**
   * Nothing is stored and no job exists unless planning succeeds, so a bad bundle leaves
   * the JobManager as it was; its error goes back to the client as it is.
   */
  async submit(request: SubmitJobRequest__Output): Promise<SubmitJobResponse> {
    const entryName = request.entryName || 'job.js';
    const defaults: JobDefaults = {
      parallelism: request.parallelism || this.config['parallelism.default'],
      maxParallelism: this.config['pipeline.max-parallelism'],
      bufferTimeoutMs: this.config['execution.buffer-timeout'],
    };
    const plan = await this.planner.plan(request.bundle.toString('utf8'), entryName, request.args, defaults);
    const bundleHash = await this.blobStore.put(request.bundle);
    const jobId = randomBytes(16).toString('hex');
    if (plan.operatorsWithoutUid.length > 0) {
      this.logger.warn(
        { jobId, operators: plan.operatorsWithoutUid },
        `operators without uid: ${plan.operatorsWithoutUid.join(', ')}; their state cannot be restored once the job changes, set .uid() on each`,
      );
    }
    this.dispatcher.submit({ jobId, jobGraph: plan.jobGraph, bundleHash, entryName, args: [...request.args], defaults });
    return { jobId, jobName: plan.jobGraph.jobName };
  }
}
