import {
  TimeDomain,
  type CoProcessFunction,
  type Collector,
  type KeyedCoProcessFunction,
  type KeyedProcessFunction,
  type KeySelector,
  type ProcessFunction,
} from '@weir/api';
import { InternalTimerService, type InternalTimer } from '../timers/internal-timer-service.ts';
import { FunctionOperator, SingleInputOperator } from './function-operator.ts';
import type { OperatorContext } from './operator-context.ts';
import type { Output } from './output.ts';
import { FunctionContext, UserTimerService } from './process-context.ts';

export type WithOnTimer = { onTimer?(timestamp: number, ctx: FunctionContext, out: Collector<unknown>): void };

/**
 * What the process operators share: the function's context and, when keyed, the operator's
 * timers (keyed state of their own, restored before open), which fire `onTimer` with their
 * key current. A watermark fires the event-time timers it makes due before it is passed on.
 */
export class TimerHost {
  readonly timers: InternalTimerService | undefined;
  readonly userTimers: UserTimerService;
  readonly ctx: FunctionContext;

  constructor(
    private readonly fn: WithOnTimer,
    private readonly out: Output,
    private readonly context: OperatorContext,
    /** The context the function gets (a broadcast operator's has broadcast state too). */
    createContext: (timers: UserTimerService) => FunctionContext = (timers) => new FunctionContext(context.subtaskIndex, context.timestamp, out, timers, context.keyed?.keys),
  ) {
    const keyed = context.keyed;
    this.timers =
      keyed === undefined
        ? undefined
        : new InternalTimerService('user', keyed, context.processingTime, {
            onEventTime: (timer) => this.#onTimer(TimeDomain.EVENT_TIME, timer),
            onProcessingTime: (timer) => this.#onTimer(TimeDomain.PROCESSING_TIME, timer),
          }, context.work);
    this.userTimers = new UserTimerService(context.processingTime, this.timers, context.label);
    this.ctx = createContext(this.userTimers);
  }

  async open(): Promise<void> {
    if (this.context.restored) await this.timers?.restore();
  }

  processWatermark(timestamp: number): void {
    if (this.timers === undefined) {
      this.userTimers.watermark = timestamp;
      this.out.emitWatermark(timestamp);
    } else {
      this.timers.advanceWatermark(timestamp, () => this.out.emitWatermark(timestamp));
    }
  }

  close(): void {
    this.timers?.close();
  }

  #onTimer(domain: TimeDomain, timer: InternalTimer): void {
    const onTimer = this.fn.onTimer;
    if (onTimer === undefined) return;
    this.ctx.firing(domain, timer.timestamp, () => {
      try {
        onTimer.call(this.fn, timer.timestamp, this.ctx, this.out);
      } catch (err) {
        throw this.context.failures.wrap(err);
      }
    });
  }
}

export class ProcessOperator extends SingleInputOperator<ProcessFunction<unknown, unknown>> {
  readonly #host: TimerHost;

  constructor(fn: ProcessFunction<unknown, unknown>, out: Output, context: OperatorContext) {
    super(fn, out, context, undefined);
    this.#host = new TimerHost(fn as WithOnTimer, out, context);
  }

  override processWatermark(timestamp: number): void {
    this.#host.processWatermark(timestamp);
  }

  collect(record: unknown): void {
    try {
      this.fn.processElement(record, this.#host.ctx, this.out);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
  }
}

export class KeyedProcessOperator extends SingleInputOperator<KeyedProcessFunction<unknown, unknown, unknown>> {
  readonly #host: TimerHost;

  constructor(fn: KeyedProcessFunction<unknown, unknown, unknown>, out: Output, context: OperatorContext, key: KeySelector<unknown, unknown>) {
    super(fn, out, context, key);
    this.#host = new TimerHost(fn as WithOnTimer, out, context);
  }

  override async open(): Promise<void> {
    await this.#host.open();
    await super.open();
  }

  override processWatermark(timestamp: number): void {
    this.#host.processWatermark(timestamp);
  }

  override async close(): Promise<void> {
    this.#host.close();
    await super.close();
  }

  collect(record: unknown): void {
    try {
      this.fn.processElement(record, this.#host.ctx, this.out);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
  }
}

type AnyCoProcessFunction = CoProcessFunction<unknown, unknown, unknown> | KeyedCoProcessFunction<unknown, unknown, unknown, unknown>;

/**
 * Two inputs: input 0 calls processElement1, input 1 processElement2; each input sets the key
 * with its own selector when keyed (KeyedCoProcessFunction, or a CoProcessFunction on two
 * keyed inputs), and then timers work. One watermark for both inputs: the task's, the minimum of all its channels.
 */
export class CoProcessOperator extends FunctionOperator<AnyCoProcessFunction> {
  readonly inputs: readonly Collector<unknown>[];
  readonly #host: TimerHost;

  constructor(fn: AnyCoProcessFunction, out: Output, context: OperatorContext, keys: readonly [KeySelector<unknown, unknown>, KeySelector<unknown, unknown>] | undefined) {
    super(fn, out, context);
    this.#host = new TimerHost(fn as WithOnTimer, out, context);
    const first: Collector<unknown> = { collect: (record) => this.#process1(record) };
    const second: Collector<unknown> = { collect: (record) => this.#process2(record) };
    this.inputs = [this.keyedInput(keys?.[0], first), this.keyedInput(keys?.[1], second)];
  }

  override async open(): Promise<void> {
    await this.#host.open();
    await super.open();
  }

  override processWatermark(timestamp: number): void {
    this.#host.processWatermark(timestamp);
  }

  override async close(): Promise<void> {
    this.#host.close();
    await super.close();
  }

  #process1(record: unknown): void {
    try {
      this.fn.processElement1(record, this.#host.ctx, this.out);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
  }

  #process2(record: unknown): void {
    try {
      this.fn.processElement2(record, this.#host.ctx, this.out);
    } catch (err) {
      throw this.context.failures.wrap(err);
    }
  }
}
