import { AllowedPaths } from '../savepoint/allowed-paths.ts';
import { WeirError } from '@weir/common';
import type { TriggerSavepointRequest__Output, TriggerSavepointResponse } from '@weir/rpc';
import { MemoryStorage } from '@weir/storage/testing';
import { silentLogger } from '@weir/common/testing';
import { runningCheckpointingJob, type CheckpointingJob } from './checkpointing-cluster.ts';
import { SavepointService } from '../savepoint/savepoint-service.ts';

export const SAVEPOINT_ROOT = 'memory://sp';
/** The directory every savepoint of job-1 gets: the random part is fixed. */
export const SAVEPOINT_DIR = 'savepoint-job-1-0123456789ab';
export const SAVEPOINT_URL = `${SAVEPOINT_ROOT}/${SAVEPOINT_DIR}`;

/**
 * A running checkpointing job (tm-1 and tm-2, two slots each, every task RUNNING, first
 * checkpoint due at 2 000) with a SavepointService whose state.savepoints.dir is a
 * MemoryStorage at memory://sp, and helpers for fake tasks answering a savepoint.
 */
export function savepointCluster(job: CheckpointingJob = {}, defaultDirectory = SAVEPOINT_ROOT) {
  const c = runningCheckpointingJob(job);
  const savepoints = new MemoryStorage(SAVEPOINT_ROOT);
  const open = (url: string): MemoryStorage => {
    if (url === SAVEPOINT_ROOT) return savepoints;
    if (url.startsWith(`${SAVEPOINT_ROOT}/`)) return savepoints.child(url.slice(SAVEPOINT_ROOT.length + 1));
    throw new WeirError('INVALID_STORAGE_URL', `the test opens only ${SAVEPOINT_ROOT}, not ${url}`);
  };
  const service = new SavepointService({
    dispatcher: c.dispatcher,
    defaultDirectory,
    openStorage: open,
    allowedPaths: new AllowedPaths([SAVEPOINT_ROOT]),
    metadataMaxBytes: 1024 ** 2,
    logger: silentLogger(),
    randomHex: () => '0123456789ab',
  });

  /** Calls TriggerSavepoint; the outcome is captured instead of thrown, so a test can look before it settles. */
  const trigger = (request: Partial<TriggerSavepointRequest__Output> = {}) => {
    const outcome: { response?: TriggerSavepointResponse; error?: WeirError; settled: boolean } = { settled: false };
    service.trigger({ jobId: 'job-1', targetDirectory: '', terminate: '', drain: false, ...request }).then(
      (response) => Object.assign(outcome, { response, settled: true }),
      (error: WeirError) => Object.assign(outcome, { error, settled: true }),
    );
    return outcome;
  };
  /** Every task writes its state file into the savepoint directory and acknowledges checkpoint `id`. */
  const ackSavepoint = async (id: number) => {
    for (const task of c.tasks()) {
      await savepoints.write(`${SAVEPOINT_DIR}/op-${task.replace('#', '-')}`, Buffer.from(`state of ${task}`));
      c.acknowledge(id, task);
    }
  };
  /** The TriggerCheckpoint messages sent so far as `<id> <type>/<terminate>/<target> <vertex#index>`. */
  const triggerOptions = (): string[] =>
    c.gateway.sent
      .filter((m) => m.message.triggerCheckpoint)
      .map((m) => {
        const t = m.message.triggerCheckpoint!;
        const o = t.options;
        return `${String(t.checkpointId)} ${o ? `${o.type}/${o.terminate}/${o.targetLocation}` : 'plain'} ${t.task!.vertexId}#${t.task!.subtaskIndex}`;
      });
  return { ...c, savepoints, service, trigger, ackSavepoint, triggerOptions, open };
}
