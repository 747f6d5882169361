// Flink's "Fraud Detection with the DataStream API" walkthrough, in Weir: a stream of card
// transactions, keyed by account; a small transaction (under 1.00) followed by a large one
// (over 500.00) within one minute raises an alert. The KeyedProcessFunction keeps a flag (the
// last transaction was small) and the time of its processing-time timer in ValueState; the
// timer clears the flag when the minute is over; any transaction after a small one clears it
// too. Checkpointed, with an exactly-once FileSink of the alerts.
//
//   pnpm weir run packages/examples/jobs/fraud-detection.ts -- <count> <transactions/s> <output dir>
import {
  CheckpointingMode,
  KeyedProcessFunction,
  Types,
  ValueStateDescriptor,
  type Collector,
  type KeyedProcessContext,
  type OnTimerContext,
  type StreamExecutionEnvironment,
  type ValueState,
} from '@weir/api';
import { DataGeneratorSource, FileSink, RateLimiterStrategy, SimpleStringEncoder } from '@weir/connectors';

export interface Transaction {
  readonly id: number;
  readonly accountId: number;
  /** In cents, so the amounts stay exact. */
  readonly cents: number;
}

export const SMALL_AMOUNT_CENTS = 100;
export const LARGE_AMOUNT_CENTS = 50_000;
const ONE_MINUTE = 60 * 1000;

/**
 * Transaction `id` of the generated stream: five accounts in turn, amounts from a fixed
 * pseudo-random sequence, about one in eight small and one in six large.
 */
export function transaction(id: number): Transaction {
  // A 32-bit mix of the index (murmur3's finalizer): the same amounts in every run.
  let h = Math.imul(id ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h = (h ^ (h >>> 16)) >>> 0;
  const bucket = h % 24;
  const cents = bucket < 3 ? h % SMALL_AMOUNT_CENTS : bucket < 7 ? LARGE_AMOUNT_CENTS + 1 + (h % 100_000) : SMALL_AMOUNT_CENTS + (h % 40_000);
  return { id, accountId: (id % 5) + 1, cents };
}

/** The alert line for the large transaction that completes the pattern. */
export function alert(t: Transaction): string {
  return `Alert{id=${t.accountId}} transaction ${t.id} amount ${(t.cents / 100).toFixed(2)}`;
}

export class FraudDetector extends KeyedProcessFunction<number, Transaction, string> {
  private flagState!: ValueState<boolean>;
  private timerState!: ValueState<number>;

  override open(): void {
    this.flagState = this.getRuntimeContext().getState(new ValueStateDescriptor('flag', Types.BOOLEAN));
    this.timerState = this.getRuntimeContext().getState(new ValueStateDescriptor('timer-state', Types.NUMBER));
  }

  processElement(transaction: Transaction, ctx: KeyedProcessContext<number>, out: Collector<string>): void {
    const lastTransactionWasSmall = this.flagState.value();
    if (lastTransactionWasSmall !== undefined) {
      if (transaction.cents > LARGE_AMOUNT_CENTS) out.collect(alert(transaction));
      this.cleanUp(ctx);
    }
    if (transaction.cents < SMALL_AMOUNT_CENTS) {
      this.flagState.update(true);
      const timer = ctx.timerService().currentProcessingTime() + ONE_MINUTE;
      ctx.timerService().registerProcessingTimeTimer(timer);
      this.timerState.update(timer);
    }
  }

  override onTimer(_timestamp: number, _ctx: OnTimerContext<number>, _out: Collector<string>): void {
    // A minute passed without the large transaction: forget the small one.
    this.timerState.clear();
    this.flagState.clear();
  }

  private cleanUp(ctx: KeyedProcessContext<number>): void {
    const timer = this.timerState.value();
    if (timer !== undefined) ctx.timerService().deleteProcessingTimeTimer(timer);
    this.timerState.clear();
    this.flagState.clear();
  }
}

export default function fraudDetection(env: StreamExecutionEnvironment, args: string[]): void {
  const [count, rate, output] = args;
  if (!/^\d+$/.test(count ?? '') || !/^\d+$/.test(rate ?? '') || output === undefined) {
    throw new Error('fraud-detection needs three arguments: <count> <transactions/s> <output dir>');
  }
  env.setParallelism(2);
  env.enableCheckpointing(1_000);
  env.getCheckpointConfig().setCheckpointingMode(CheckpointingMode.EXACTLY_ONCE);
  env
    .fromSource(new DataGeneratorSource(transaction, Number(count), RateLimiterStrategy.perSecond(Number(rate))), 'transactions')
    .uid('transactions')
    // One reader, as the walkthrough's TransactionSource: each account's transactions in order.
    .setParallelism(1)
    .keyBy((t) => t.accountId)
    .process(new FraudDetector())
    .uid('fraud-detector')
    .name('fraud-detector')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build())
    .uid('alerts');
  env.execute('Fraud Detection');
}
