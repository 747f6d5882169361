import type { Addressed } from '@weir/common';

/** A checkpoint message as the JobManager received it: the subtask it is about, and the TaskManager whose stream it came on. */
export type FromTaskManager<M> = Addressed<M> & { readonly taskManagerId: string };
