/**
 * Running a whole job in this process, for @weir/testing's in-process MiniCluster: the
 * runtime's own in-process job runner (every subtask a Task, channels between them copied as
 * the wire would) and the JobManager's part of a checkpoint (trigger at the sources, wait for
 * every acknowledgement, notify).
 */
import type { TaskCheckpointing } from '../checkpoint/types.ts';
export type { TaskRestore } from '../checkpoint/types.ts';
import { CHECKPOINTING_DEFAULTS } from './checkpointing-defaults.ts';

export { runJob, type RunningJob, type JobOptions } from './harness.ts';
export { checkpoint, notifyComplete, notifyAborted, restoreFrom } from './checkpoints.ts';

/** Exactly-once aligned checkpoints of the memory backend: state stays in the acknowledgements, nothing is written to disk. */
export function inMemoryCheckpointing(): TaskCheckpointing {
  return { mode: 'EXACTLY_ONCE', backend: 'memory', storage: undefined, maxInlineBytes: 64 * 1024 * 1024, asyncSnapshots: true, ...CHECKPOINTING_DEFAULTS };
}
