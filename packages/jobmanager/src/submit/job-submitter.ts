import { randomBytes } from 'node:crypto';
import type { Logger, WeirConfig } from '@weir/common';
import type { SubmitJobRequest__Output, SubmitJobResponse } from '@weir/rpc';
import type { Storage } from '@weir/storage';
import type { InitialRestore } from '../checkpoint/restore-point.ts';
import type { BlobStore } from '../blob/blob-store.ts';
import type { Dispatcher } from '../dispatcher.ts';
import type { JobDefaults } from '../job/job-spec.ts';
import type { JobSettings } from '../settings/job-settings.ts';
import { resolveJobSettings } from '../settings/resolve-job-settings.ts';
import { checkSubmitJob } from '../service/request-checks.ts';
import type { JobPlanner } from './job-planner.ts';
import { readInitialRestore } from './savepoint-reader.ts';

/** Opens the Storage a checkpoint directory URL (or local path) names; throws INVALID_STORAGE_URL for one it cannot. */
export type StorageOpener = (url: string) => Storage;

/** Handles SubmitJob: plan the job, resolve its settings, keep its bundle, hand it to a new JobMaster. */
export class JobSubmitter {
  constructor(
    private readonly planner: JobPlanner,
    private readonly blobStore: BlobStore,
    private readonly dispatcher: Dispatcher,
    private readonly config: WeirConfig,
    private readonly logger: Logger,
    private readonly openStorage: StorageOpener,
  ) {}

  /**
   * The one way a job comes to exist (a client's SubmitJob, and a recovered job alike).
   * Nothing is stored and no job exists unless planning, the job's settings and the savepoint
   * to restore (savepoint_path: read, checked whole and mapped onto the job) succeed, so a bad
   * bundle, an unusable checkpoint setup or a bad savepoint leaves the JobManager as it was;
   * the error goes back to the client as it is.
   */
  async submit(request: SubmitJobRequest__Output): Promise<SubmitJobResponse> {
    checkSubmitJob(request);
    const jobId = randomBytes(16).toString('hex');
    const entryName = request.entryName || 'job.js';
    const defaults: JobDefaults = {
      parallelism: request.parallelism || this.config['parallelism.default'],
      maxParallelism: this.config['pipeline.max-parallelism'],
      bufferTimeoutMs: this.config['execution.buffer-timeout'],
      autoWatermarkIntervalMs: this.config['pipeline.auto-watermark-interval'],
      objectReuse: this.config['pipeline.object-reuse'],
    };
    const plan = await this.planner.plan({ jobId, code: request.bundle.toString('utf8'), entryName, args: request.args, defaults });
    let checkpointRoot: Storage | undefined;
    let bundleHash: string;
    let settings: JobSettings;
    let initialRestore: InitialRestore | undefined;
    try {
      settings = resolveJobSettings(plan.executionConfig, this.config);
      initialRestore =
        request.savepointPath === ''
          ? undefined
          : await readInitialRestore({ path: request.savepointPath, allowNonRestoredState: request.allowNonRestoredState }, plan.jobGraph, this.openStorage, this.logger);
      const directory = settings.checkpointing?.directory;
      checkpointRoot = directory === undefined ? undefined : this.openStorage(directory);
      bundleHash = await this.blobStore.put(request.bundle);
    } catch (err) {
      checkpointRoot?.close();
      await plan.userCode.close();
      throw err;
    }
    if (plan.operatorsWithoutUid.length > 0) {
      this.logger.warn(
        { jobId, operators: plan.operatorsWithoutUid },
        `operators without uid: ${plan.operatorsWithoutUid.join(', ')}; their state cannot be restored once the job changes, set .uid() on each`,
      );
    }
    this.dispatcher.submit(
      {
        jobId,
        jobGraph: plan.jobGraph,
        bundleHash,
        entryName,
        args: [...request.args],
        defaults,
        settings,
        ...(initialRestore === undefined ? {} : { initialRestore }),
        ...(plan.splitSources.length === 0 ? {} : { splitSources: plan.splitSources }),
      },
      checkpointRoot,
      plan.userCode,
    );
    return { jobId, jobName: plan.jobGraph.jobName };
  }
}
