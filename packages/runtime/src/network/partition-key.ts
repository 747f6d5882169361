import type { PartitionId } from './types.ts';

/** The registry's map key of a partition; NUL cannot occur in IDs, so distinct parts give distinct keys. */
export function partitionKey(id: PartitionId): string {
  return `${id.jobId}\u0000${id.attempt}\u0000${id.producerVertexId}\u0000${id.producerSubtask}\u0000${id.consumerVertexId}\u0000${id.consumerInput}`;
}

export function attemptKey(jobId: string, attempt: number): string {
  return `${jobId}\u0000${attempt}\u0000`;
}
