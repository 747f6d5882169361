import { randomBytes } from 'node:crypto';
import { isGloballyTerminal, jobConfiguration, type JobStatus, type Logger, type WeirConfig } from '@weir/common';
import type { SubmitJobRequest__Output, SubmitJobResponse } from '@weir/rpc';
import type { Storage, StorageOpener } from '@weir/storage';
import type { InitialRestore } from '../checkpoint/restore-point.ts';
import type { BlobStore } from '../blob/blob-store.ts';
import type { CompletedCheckpoint } from '../checkpoint/completed-checkpoint-store.ts';
import type { Dispatcher } from '../dispatcher.ts';
import type { JobCheckpointHa, LeaderHa, SubmittedJob } from '../ha/leader-ha.ts';
import type { JobMaster } from '../job/job-master.ts';
import type { JobDefaults, JobSpec } from '../job/job-spec.ts';
import type { JobSettings } from '../settings/job-settings.ts';
import { resolveJobSettings } from '../settings/resolve-job-settings.ts';
import { checkSubmitJob } from '../service/request-checks.ts';
import type { JobPlanner } from './job-planner.ts';
import { AllowedPaths } from '../savepoint/allowed-paths.ts';
import { readInitialRestore } from './savepoint-reader.ts';
import { ExclusiveClaims } from './exclusive-claims.ts';
import { checkBundleApiVersion } from './api-version-check.ts';

/** A job a new leader takes over: its retained checkpoints and the HA of its checkpoints. */
export interface JobRecovery {
  /** Oldest first; empty when the job completed none. */
  readonly checkpoints: readonly CompletedCheckpoint[];
}

/** Handles SubmitJob: plan the job, resolve its settings, keep its bundle, hand it to a new JobMaster. */
export class JobSubmitter {
  readonly #allowedPaths: AllowedPaths;
  readonly #claims: ExclusiveClaims;

  constructor(
    private readonly planner: JobPlanner,
    private readonly blobStore: BlobStore,
    private readonly dispatcher: Dispatcher,
    private readonly config: WeirConfig,
    private readonly logger: Logger,
    private readonly openStorage: StorageOpener,
    /** With HA: the submission is kept in storageDir and registered in etcd before the job starts. */
    private readonly ha?: LeaderHa,
  ) {
    this.#allowedPaths = AllowedPaths.fromConfig(config);
    this.#claims = new ExclusiveClaims(() =>
      dispatcher
        .list()
        .filter((master) => !isGloballyTerminal(master.status))
        .map((master) => ({ jobId: master.jobId, jobName: master.spec.jobGraph.jobName, resources: master.spec.exclusiveResources ?? [] })),
    );
  }

  /**
   * The one way a job comes to exist (a client's SubmitJob, and a recovered job alike).
   * Nothing is stored and no job exists unless planning, the job's settings and the savepoint
   * to restore (savepoint_path: read, checked whole and mapped onto the job) succeed, so a bad
   * bundle, an unusable checkpoint setup or a bad savepoint leaves the JobManager as it was;
   * the error goes back to the client as it is. `owner` is the submitter's principalId ('' when
   * authentication is off), kept with the job under HA.
   */
  async submit(request: SubmitJobRequest__Output, owner = ''): Promise<SubmitJobResponse> {
    checkSubmitJob(request);
    checkBundleApiVersion(request.bundle, request.entryName || 'job.js');
    // A client's path only: a recovered job's was checked when it was submitted (and kept as resolved then).
    const savepointPath = request.savepointPath === '' ? '' : await this.#allowedPaths.check('savepoint path', request.savepointPath);
    const job: SubmittedJob = {
      jobId: randomBytes(16).toString('hex'),
      bundle: request.bundle,
      entryName: request.entryName || 'job.js',
      args: [...request.args],
      parallelism: request.parallelism,
      savepointPath,
      allowNonRestoredState: request.allowNonRestoredState,
      configuration: { ...request.configuration },
      submittedAtMs: Date.now(),
      owner,
    };
    const master = await this.#start(job, undefined);
    return { jobId: job.jobId, jobName: master.spec.jobGraph.jobName };
  }

  /**
   * Submits a job a new leader took over the same way it was submitted first, with its ID; it
   * restores its latest retained checkpoint, or the savepoint it was submitted with when it
   * completed none.
   */
  recover(job: SubmittedJob, recovery: JobRecovery): Promise<JobMaster> {
    return this.#start(job, recovery);
  }

  /**
   * The job's checkpoint directory is where the JobManager and its TaskManagers write, and
   * delete: its state backend's or -D state.checkpoints.dir are the submitter's to choose, so a
   * new job's is confined to the allowed roots (PATH_NOT_ALLOWED naming them) and used resolved.
   * A recovered job's was checked when it was submitted.
   */
  async #confineCheckpoints(settings: JobSettings, submitted: boolean): Promise<JobSettings> {
    const checkpointing = settings.checkpointing;
    if (!submitted || checkpointing?.directory === undefined) return settings;
    const directory = await this.#allowedPaths.check('checkpoint directory', checkpointing.directory);
    return { ...settings, checkpointing: { ...checkpointing, directory } };
  }

  async #start(job: SubmittedJob, recovery: JobRecovery | undefined): Promise<JobMaster> {
    const { jobId, entryName } = job;
    const config = jobConfiguration(this.config, job.configuration);
    const defaults: JobDefaults = {
      parallelism: job.parallelism || config['parallelism.default'],
      maxParallelism: config['pipeline.max-parallelism'],
      bufferTimeoutMs: config['execution.buffer-timeout'],
      autoWatermarkIntervalMs: config['pipeline.auto-watermark-interval'],
      objectReuse: config['pipeline.object-reuse'],
    };
    const plan = await this.planner.plan({ jobId, code: job.bundle.toString('utf8'), entryName, args: job.args, defaults });
    let checkpointRoot: Storage | undefined;
    let checkpointHa: JobCheckpointHa | undefined;
    let bundleHash: string;
    let settings: JobSettings;
    let initialRestore: InitialRestore | undefined;
    let claim: { release(): void } | undefined;
    try {
      // A recovered job held its claims when it was submitted; it takes them back whatever else runs now.
      if (recovery === undefined) claim = this.#claims.reserve({ jobId, jobName: plan.jobGraph.jobName, resources: plan.exclusiveResources ?? [] });
      settings = await this.#confineCheckpoints(resolveJobSettings(plan.executionConfig, config), recovery === undefined);
      // A recovered job with checkpoints restores them; the savepoint may be gone by now.
      const readSavepoint = job.savepointPath !== '' && (recovery?.checkpoints.length ?? 0) === 0;
      initialRestore = readSavepoint
        ? await readInitialRestore(
            { path: job.savepointPath, allowNonRestoredState: job.allowNonRestoredState, metadataMaxBytes: this.config['state.metadata.max-size'] },
            plan.jobGraph,
            this.openStorage,
            this.logger,
          )
        : undefined;
      const directory = settings.checkpointing?.directory;
      checkpointRoot = directory === undefined ? undefined : this.openStorage(directory);
      bundleHash = await this.blobStore.put(job.bundle);
      if (this.ha !== undefined && recovery === undefined) await this.ha.jobSubmitted(job, plan.jobGraph.jobName);
      if (this.ha !== undefined && settings.checkpointing !== undefined) checkpointHa = await this.ha.checkpoints(jobId, initialRestore?.point.checkpointId ?? 0);
    } catch (err) {
      claim?.release();
      checkpointRoot?.close();
      await plan.userCode.close();
      throw err;
    }
    if (plan.operatorsWithoutUid.length > 0 && recovery === undefined) {
      this.logger.warn(
        { jobId, operators: plan.operatorsWithoutUid },
        `operators without uid: ${plan.operatorsWithoutUid.join(', ')}; their state cannot be restored once the job changes, set .uid() on each`,
      );
    }
    const spec: JobSpec = {
      jobId, jobGraph: plan.jobGraph, bundleHash, entryName, args: [...job.args], defaults, settings, configuration: job.configuration, owner: job.owner, ...(initialRestore === undefined ? {} : { initialRestore }),
      ...(plan.splitSources.length === 0 ? {} : { splitSources: plan.splitSources }),
      ...((plan.exclusiveResources ?? []).length === 0 ? {} : { exclusiveResources: plan.exclusiveResources }),
    };
    const ha = this.ha;
    // From here the job is live and the dispatcher's list holds its claims.
    claim?.release();
    return this.dispatcher.submit(spec, checkpointRoot, {
      userCode: plan.userCode,
      checkpointHa,
      submittedAtMs: job.submittedAtMs,
      ...(recovery === undefined ? {} : { recovered: recovery.checkpoints }),
      ...(ha === undefined ? {} : { recordEnd: (status: JobStatus, cause: string) => ha.jobEnded(jobId, plan.jobGraph.jobName, status, cause, job.submittedAtMs) }),
    });
  }
}
