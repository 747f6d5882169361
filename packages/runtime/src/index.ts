export * from './network/types.ts';
export * from './task/deployment.ts';
export { RuntimeErrorCode } from './errors.ts';
export { PartitionRegistry, describeSubpartition, type PartitionRegistryOptions } from './network/partition-registry.ts';
export { Task, type TaskOptions } from './task/task.ts';
export type { TaskNetworkStats } from './task/task-runtime.ts';
export { decodeRecords, encodeRecords } from './network/record-codec.ts';
export { SUBPARTITION_QUEUE_LIMIT, BUFFER_TARGET_BYTES } from './output/create-record-writer.ts';
export { INITIAL_CREDIT } from './task/input-wiring.ts';
