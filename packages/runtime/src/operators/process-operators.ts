import type {
  CoProcessFunction,
  Collector,
  KeyedProcessContext,
  KeyedProcessFunction,
  KeySelector,
  ProcessContext,
  ProcessFunction,
} from '@weir/api';
import type { KeyContext } from '../state/key-context.ts';
import { FunctionOperator, SingleInputOperator } from './function-operator.ts';
import type { OperatorContext } from './operator-context.ts';

class KeyedContext implements KeyedProcessContext<unknown> {
  constructor(
    readonly subtaskIndex: number,
    private readonly keys: KeyContext | undefined,
  ) {}

  getCurrentKey(): unknown {
    return this.keys?.key;
  }
}

export class ProcessOperator extends SingleInputOperator<ProcessFunction<unknown, unknown>> {
  readonly #ctx: ProcessContext;

  constructor(fn: ProcessFunction<unknown, unknown>, out: Collector<unknown>, context: OperatorContext) {
    super(fn, out, context, undefined);
    this.#ctx = { subtaskIndex: context.subtaskIndex };
  }

  collect(record: unknown): void {
    try {
      this.fn.processElement(record, this.#ctx, this.out);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
  }
}

export class KeyedProcessOperator extends SingleInputOperator<KeyedProcessFunction<unknown, unknown, unknown>> {
  readonly #ctx: KeyedContext;

  constructor(
    fn: KeyedProcessFunction<unknown, unknown, unknown>,
    out: Collector<unknown>,
    context: OperatorContext,
    key: KeySelector<unknown, unknown>,
  ) {
    super(fn, out, context, key);
    this.#ctx = new KeyedContext(context.subtaskIndex, context.keyed?.keys);
  }

  collect(record: unknown): void {
    try {
      this.fn.processElement(record, this.#ctx, this.out);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
  }
}

/** Two inputs: input 0 calls processElement1, input 1 processElement2; each input sets the key with its own selector when keyed. */
export class CoProcessOperator extends FunctionOperator<CoProcessFunction<unknown, unknown, unknown>> {
  readonly inputs: readonly Collector<unknown>[];
  readonly #ctx: KeyedContext;

  constructor(
    fn: CoProcessFunction<unknown, unknown, unknown>,
    out: Collector<unknown>,
    context: OperatorContext,
    keys: readonly [KeySelector<unknown, unknown>, KeySelector<unknown, unknown>] | undefined,
  ) {
    super(fn, out, context);
    this.#ctx = new KeyedContext(context.subtaskIndex, context.keyed?.keys);
    const first: Collector<unknown> = { collect: (record) => this.#process1(record) };
    const second: Collector<unknown> = { collect: (record) => this.#process2(record) };
    this.inputs = [this.keyedInput(keys?.[0], first), this.keyedInput(keys?.[1], second)];
  }

  #process1(record: unknown): void {
    try {
      this.fn.processElement1(record, this.#ctx, this.out);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
  }

  #process2(record: unknown): void {
    try {
      this.fn.processElement2(record, this.#ctx, this.out);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
  }
}
