import type { ConnectorContext } from '@weir/api';
import type { KeyedStateBackend } from '../state/keyed-state-backend.ts';
import type { OperatorRuntimeContext } from '../task/runtime-context.ts';
import type { PendingWork } from './pending-work.ts';
import type { FailureWrapper } from './operator-failure.ts';

/** What the chain builder hands every operator it creates. */
export interface OperatorContext {
  readonly label: string;
  readonly subtaskIndex: number;
  readonly failures: FailureWrapper;
  readonly runtimeContext: OperatorRuntimeContext;
  /** Set when the operator runs on a KeyedStream. */
  readonly keyed: KeyedStateBackend | undefined;
  readonly connector: ConnectorContext;
  /** Where a sink parks the promise of a slow write, for the task to await before the next record. */
  readonly work: PendingWork;
}
