import type { InputStatus } from '@weir/api';

/** Where a task's records come from: its source reader, or its input gate. The task loop calls `emitNext` once per record. */
export interface TaskInput {
  /** Pushes at most one record (or one event) into the operator chain. */
  emitNext(): InputStatus;
  /** After NOTHING_AVAILABLE: resolves when `emitNext` may have something again. */
  whenAvailable(): Promise<void>;
}
