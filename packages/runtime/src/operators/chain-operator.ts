import type { Collector, RuntimeContext } from '@weir/api';
import type { KeyContext } from '../state/key-context.ts';
import type { FailureWrapper } from './operator-failure.ts';

/**
 * One operator of a chain. Records enter through `inputs` (plain collectors, so chained
 * operators call each other directly); `open` runs before the first record (restored state is
 * in place by then), `finish` at end of input, `close` at the end, also after a failure or
 * on cancel. The checkpoint hooks run between two records, on the task's loop, and so do
 * watermarks and timers.
 */
export interface ChainOperator {
  readonly label: string;
  /** Two for coProcess, none for a source. */
  readonly inputs: readonly Collector<unknown>[];
  /**
   * A new input watermark: fire the timers it makes due, then pass it on (Flink's
   * processWatermark). A source operator gets none; its reader makes its own.
   */
  processWatermark(timestamp: number): void;
  /** The input went idle or active again: passed on. */
  processWatermarkStatus(idle: boolean): void;
  open(): Promise<void>;
  finish(): Promise<void>;
  close(): Promise<void>;
  /**
   * The synchronous part of a checkpoint: brings the operator's lists up to date (a
   * CheckpointedFunction's snapshotState, the reader's position, the sink's flush and
   * prepareCommit). The runtime captures the state right after.
   */
  snapshotState(checkpointId: number, timestamp: number): Promise<void>;
  notifyCheckpointComplete(checkpointId: number): Promise<void>;
  notifyCheckpointAborted(checkpointId: number): Promise<void>;
}

/** Sets the current key from the record (the operator's key selector is user code) before the operator sees it. */
export class KeyedInput implements Collector<unknown> {
  constructor(
    private readonly keys: KeyContext,
    private readonly selector: (record: unknown) => unknown,
    private readonly next: Collector<unknown>,
    private readonly failures: FailureWrapper,
  ) {}

  collect(record: unknown): void {
    try {
      this.keys.setCurrentKey(this.selector(record));
    } catch (err) {
      throw this.failures.wrap(err);
    }
    this.next.collect(record);
  }

  /** A record that came over a keyBy edge with its key group: the key is taken, not hashed again. */
  collectInGroup(record: unknown, keyGroup: number): void {
    try {
      this.keys.setCurrentKeyInGroup(this.selector(record), keyGroup);
    } catch (err) {
      throw this.failures.wrap(err);
    }
    this.next.collect(record);
  }
}

interface MaybeRich {
  setRuntimeContext?: (context: RuntimeContext) => void;
  open?: () => void | Promise<void>;
  close?: () => void | Promise<void>;
}

/**
 * Gives a user function its runtime context, runs `initialize` (operator state), and opens
 * it. Duck-typed rather than `instanceof RichFunction`: an object that has the lifecycle
 * methods gets them called.
 */
export async function openFunction(
  fn: unknown,
  context: RuntimeContext,
  failures: FailureWrapper,
  initialize: () => Promise<void>,
): Promise<void> {
  const rich = fn as MaybeRich;
  if (typeof rich.setRuntimeContext === 'function') rich.setRuntimeContext(context);
  await initialize();
  if (typeof rich.open === 'function') await failures.call(() => rich.open!());
}

export async function closeFunction(fn: unknown, failures: FailureWrapper): Promise<void> {
  const rich = fn as MaybeRich;
  if (typeof rich.close === 'function') await failures.call(() => rich.close!());
}
