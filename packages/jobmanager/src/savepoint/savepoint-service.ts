import { describeError, type Logger } from '@weir/common';
import { checkPath } from '../service/request-checks.ts';
import type { DisposeSavepointRequest__Output, TriggerSavepointRequest__Output, TriggerSavepointResponse } from '@weir/rpc';
import type { StorageOpener } from '@weir/storage';
import type { Dispatcher } from '../dispatcher.ts';
import type { AllowedPaths } from './allowed-paths.ts';
import { disposeSavepoint } from './dispose-savepoint.ts';
import { parseSavepointMode } from './savepoint-mode.ts';
import { SavepointTarget, resolveSavepointBase, savepointDirName } from './savepoint-target.ts';

export interface SavepointServiceDeps {
  readonly dispatcher: Dispatcher;
  /** state.savepoints.dir: where savepoints go when a request names no directory ('' = not set). */
  readonly defaultDirectory: string;
  readonly openStorage: StorageOpener;
  /** Where a request may name a savepoint directory (state.savepoints.dir, state.checkpoints.dir, state.savepoints.allowed-dirs). */
  readonly allowedPaths: AllowedPaths;
  /** state.metadata.max-size: the largest `_metadata` read before a dispose. */
  readonly metadataMaxBytes: number;
  readonly logger: Logger;
  /** 12 random hex chars for a savepoint directory's name. */
  readonly randomHex?: () => string;
}

/** TriggerSavepoint and DisposeSavepoint: checks the request before anything is written, then takes or deletes the savepoint. */
export class SavepointService {
  constructor(private readonly deps: SavepointServiceDeps) {}

  /**
   * Takes a savepoint of a running job into `<dir>/savepoint-<jobId6>-<rand>` and answers with
   * its URL and checkpoint ID once `_metadata` is written. A bad request (unknown job, job
   * without checkpointing or not running, a savepoint in progress, no or an unwritable
   * directory) fails before anything is triggered; a failed savepoint's directory is deleted.
   */
  async trigger(request: TriggerSavepointRequest__Output): Promise<TriggerSavepointResponse> {
    const { dispatcher, logger } = this.deps;
    const mode = parseSavepointMode(request.terminate, request.drain);
    const job = dispatcher.get(request.jobId);
    checkPath('target directory', request.targetDirectory);
    job.checkSavepointPossible();
    const base = resolveSavepointBase(request.targetDirectory, this.deps.defaultDirectory);
    const allowed = await this.deps.allowedPaths.check('savepoint directory', base);
    const target = await SavepointTarget.create(allowed, savepointDirName(job.jobId, this.deps.randomHex), this.deps.openStorage);
    const log = logger.child({ jobId: job.jobId });
    try {
      const savepoint = await job.triggerSavepoint(target, mode);
      return { savepointPath: savepoint.path, checkpointId: savepoint.checkpointId };
    } catch (err) {
      await target.discard().catch((cleanup: unknown) => log.warn({ path: target.location(), err: describeError(cleanup) }, `could not delete the failed savepoint's directory ${target.location()}`));
      throw err;
    } finally {
      target.close();
    }
  }

  /** Throws PATH_NOT_ALLOWED when a savepoint may not be written into `targetDirectory` ('' is state.savepoints.dir, which may). */
  async checkTargetAllowed(targetDirectory: string): Promise<void> {
    if (targetDirectory.trim() !== '') await this.deps.allowedPaths.check('savepoint directory', targetDirectory);
  }

  async dispose(request: DisposeSavepointRequest__Output): Promise<void> {
    checkPath('savepoint path', request.savepointPath);
    const path = request.savepointPath.trim() === '' ? request.savepointPath : await this.deps.allowedPaths.check('savepoint path', request.savepointPath);
    return disposeSavepoint(path, this.deps.openStorage, this.deps.logger, this.deps.metadataMaxBytes);
  }
}
