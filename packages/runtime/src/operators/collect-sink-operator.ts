import type { Collector } from '@weir/api';
import type { CollectCreditEvent } from '@weir/common';
import type { ChainOperator } from './chain-operator.ts';
import type { OperatorContext } from './operator-context.ts';

/** Rows the sink gathers before it sends them without waiting for its flush timer. */
export const COLLECT_BATCH_ROWS = 256;
/** How often a partial batch goes out: a live result shows new rows within this. */
export const COLLECT_FLUSH_INTERVAL_MS = 100;

/**
 * Flink's CollectSinkFunction: records go to the JobManager's buffer for the job (an
 * OperatorEvent on the TaskManager's control stream), never more than the credit the
 * JobManager granted. Without credit, a full batch parks the task (PendingWork) until credit
 * comes: a client that stops reading back-pressures the job. Sending registers first with an
 * empty batch, which asks for the first credit.
 *
 * Differs from Flink: rows are not part of checkpoints; after a failover the restored job
 * sends again what it produced since the checkpoint (at-least-once for the reader).
 */
export class CollectSinkOperator implements ChainOperator, Collector<unknown> {
  readonly label: string;
  readonly inputs: readonly Collector<unknown>[] = [this];
  #credits = 0;
  #batch: unknown[] = [];
  #parked = false;
  #creditArrived: (() => void) | undefined;
  #cancelTimer: (() => void) | undefined;

  constructor(private readonly context: OperatorContext) {
    this.label = context.label;
  }

  processWatermark(): void {}

  processWatermarkStatus(): void {}

  async open(): Promise<void> {
    this.context.sendOperatorEvent({ kind: 'collect-rows', rows: [] });
    this.#scheduleFlush();
  }

  collect(record: unknown): void {
    this.#batch.push(record);
    if (this.#batch.length < COLLECT_BATCH_ROWS) return;
    this.#send();
    if (this.#batch.length >= COLLECT_BATCH_ROWS && !this.#parked) {
      this.#parked = true;
      this.context.work.add(this.#sendWhenCredited(COLLECT_BATCH_ROWS).finally(() => (this.#parked = false)));
    }
  }

  /** The JobManager's credit; called off the task's loop too (the task may wait for it in `finish`), so it only counts and wakes. */
  handleOperatorEvent(event: CollectCreditEvent): void {
    this.#credits += event.credits;
    const wake = this.#creditArrived;
    this.#creditArrived = undefined;
    wake?.();
  }

  /** End of input: every row goes out before the task finishes. */
  async finish(): Promise<void> {
    this.#cancelTimer?.();
    await this.#sendWhenCredited(1);
  }

  async snapshotState(): Promise<void> {}

  async notifyCheckpointComplete(): Promise<void> {}

  async notifyCheckpointAborted(): Promise<void> {}

  async close(): Promise<void> {
    this.#cancelTimer?.();
  }

  /** Sends until fewer than `threshold` rows wait, waiting for credit as needed. */
  async #sendWhenCredited(threshold: number): Promise<void> {
    this.#send();
    while (this.#batch.length >= threshold) {
      await new Promise<void>((resolve) => (this.#creditArrived = resolve));
      this.#send();
    }
  }

  #send(): void {
    const n = Math.min(this.#credits, this.#batch.length);
    if (n === 0) return;
    const rows = n === this.#batch.length ? this.#batch : this.#batch.slice(0, n);
    this.#batch = n === this.#batch.length ? [] : this.#batch.slice(n);
    this.#credits -= n;
    this.context.sendOperatorEvent({ kind: 'collect-rows', rows });
  }

  #scheduleFlush(): void {
    const time = this.context.processingTime;
    this.#cancelTimer = time.registerTimer(time.currentProcessingTime() + COLLECT_FLUSH_INTERVAL_MS, () => {
      this.#send();
      this.#scheduleFlush();
    });
  }
}
