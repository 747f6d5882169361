import type { Collector, KeySelector } from '@weir/api';
import { closeFunction, KeyedInput, openFunction, type ChainOperator } from './chain-operator.ts';
import { initializeFunctionState, notifyListener, snapshotFunctionState } from './checkpoint-hooks.ts';
import type { OperatorContext } from './operator-context.ts';
import type { Output } from './output.ts';

/** An operator around one user function: opens and closes it. */
export abstract class FunctionOperator<F> implements ChainOperator {
  readonly label: string;
  abstract readonly inputs: readonly Collector<unknown>[];

  constructor(
    protected readonly fn: F,
    protected readonly out: Output,
    protected readonly context: OperatorContext,
  ) {
    this.label = context.label;
  }

  processWatermark(timestamp: number): void {
    this.out.emitWatermark(timestamp);
  }

  processWatermarkStatus(idle: boolean): void {
    this.out.emitWatermarkStatus(idle);
  }

  async open(): Promise<void> {
    await openFunction(this.fn, this.context.runtimeContext, this.context.failures, () => initializeFunctionState(this.fn, this.context));
    this.context.keyed?.keys.clearCurrentKey();
  }

  async finish(): Promise<void> {}

  async snapshotState(checkpointId: number, timestamp: number): Promise<void> {
    this.context.keyed?.keys.clearCurrentKey();
    snapshotFunctionState(this.fn, this.context.failures, checkpointId, timestamp);
  }

  notifyCheckpointComplete(checkpointId: number): Promise<void> {
    return notifyListener(this.fn, this.context.failures, checkpointId, true);
  }

  notifyCheckpointAborted(checkpointId: number): Promise<void> {
    return notifyListener(this.fn, this.context.failures, checkpointId, false);
  }

  async close(): Promise<void> {
    this.context.keyed?.keys.clearCurrentKey();
    await closeFunction(this.fn, this.context.failures);
  }

  /** Puts a KeyedInput in front of `next` when the operator is keyed. */
  protected keyedInput(key: KeySelector<unknown, unknown> | undefined, next: Collector<unknown>): Collector<unknown> {
    const keyed = this.context.keyed;
    if (key === undefined || keyed === undefined) return next;
    return new KeyedInput(keyed.keys, key, next, this.context.failures);
  }
}

/** One input: the operator is itself the collector its input calls, behind a KeyedInput when keyed. */
export abstract class SingleInputOperator<F> extends FunctionOperator<F> {
  readonly inputs: readonly Collector<unknown>[];

  constructor(fn: F, out: Output, context: OperatorContext, key: KeySelector<unknown, unknown> | undefined) {
    super(fn, out, context);
    this.inputs = [this.keyedInput(key, this)];
  }

  abstract collect(record: unknown): void;
}
