import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { CheckpointSettings } from '../graph/stream-graph.ts';
import { CheckpointingMode, ExternalizedCheckpointCleanup } from './checkpointing-mode.ts';

/** Flink's MINIMAL_CHECKPOINT_TIME: shorter intervals and timeouts only make checkpoints pile up. */
export const MIN_CHECKPOINT_INTERVAL_MS = 10;

/**
 * The job's checkpoint settings (Flink's CheckpointConfig, from `env.getCheckpointConfig()`).
 * Settings may be made before `enableCheckpointing`: they are recorded, and checkpointing is on
 * once an interval is set. A getter returns undefined for a setting the job left alone: the
 * cluster's `execution.checkpointing.*` key decides it.
 */
export class CheckpointConfig {
  #intervalMs: number | undefined;
  #mode: CheckpointingMode | undefined;
  #minPauseMs: number | undefined;
  #timeoutMs: number | undefined;
  #maxConcurrent: number | undefined;
  #tolerableFailures: number | undefined;
  #externalizedCleanup: ExternalizedCheckpointCleanup | undefined;
  #unaligned: boolean | undefined;
  #alignedCheckpointTimeoutMs: number | undefined;

  /** Whether env.enableCheckpointing was called. */
  isCheckpointingEnabled(): boolean {
    return this.#intervalMs !== undefined;
  }

  /** -1 while checkpointing is not enabled, as in Flink. */
  getCheckpointInterval(): number {
    return this.#intervalMs ?? -1;
  }

  /** Enables checkpointing: one is triggered every `intervalMs` (at least 10 ms). */
  setCheckpointInterval(intervalMs: number): this {
    this.#intervalMs = requireAtLeast(intervalMs, MIN_CHECKPOINT_INTERVAL_MS, 'checkpoint interval', 'ms');
    return this;
  }

  /** EXACTLY_ONCE (aligned barriers) or AT_LEAST_ONCE. */
  getCheckpointingMode(): CheckpointingMode | undefined {
    return this.#mode;
  }

  /** EXACTLY_ONCE (aligned barriers) or AT_LEAST_ONCE (Flink's setCheckpointingMode). */
  setCheckpointingMode(mode: CheckpointingMode): this {
    this.#mode = requireOneOf(mode, CheckpointingMode, 'checkpointing mode', 'CheckpointingMode');
    return this;
  }

  /** The least time between the end of one checkpoint and the start of the next (ms). */
  getMinPauseBetweenCheckpoints(): number | undefined {
    return this.#minPauseMs;
  }

  /** Least time from the completion of one checkpoint to the trigger of the next; 0 allows back to back. */
  setMinPauseBetweenCheckpoints(minPauseMs: number): this {
    this.#minPauseMs = requireAtLeast(minPauseMs, 0, 'min pause between checkpoints', 'ms');
    return this;
  }

  /** How long a checkpoint may take before it is aborted (ms). */
  getCheckpointTimeout(): number | undefined {
    return this.#timeoutMs;
  }

  /** A checkpoint not complete this long after its trigger is expired and discarded. */
  setCheckpointTimeout(timeoutMs: number): this {
    this.#timeoutMs = requireAtLeast(timeoutMs, MIN_CHECKPOINT_INTERVAL_MS, 'checkpoint timeout', 'ms');
    return this;
  }

  /** How many checkpoints may be in progress at once. */
  getMaxConcurrentCheckpoints(): number | undefined {
    return this.#maxConcurrent;
  }

  /** How many checkpoints may be in progress at once (Flink's setMaxConcurrentCheckpoints). */
  setMaxConcurrentCheckpoints(maxConcurrent: number): this {
    this.#maxConcurrent = requireAtLeast(maxConcurrent, 1, 'max concurrent checkpoints', 'checkpoints');
    return this;
  }

  /** How many checkpoint failures in a row the job tolerates before it fails. */
  getTolerableCheckpointFailureNumber(): number | undefined {
    return this.#tolerableFailures;
  }

  /** Consecutive failed checkpoints the job survives; one more fails the job over. */
  setTolerableCheckpointFailureNumber(tolerableFailures: number): this {
    this.#tolerableFailures = requireAtLeast(tolerableFailures, 0, 'tolerable checkpoint failure number', 'failures');
    return this;
  }

  /** Whether a cancelled job's last checkpoint is kept (RETAIN_ON_CANCELLATION) or deleted. */
  getExternalizedCheckpointCleanup(): ExternalizedCheckpointCleanup | undefined {
    return this.#externalizedCleanup;
  }

  /** Keep (RETAIN_ON_CANCELLATION) or delete a cancelled job's last checkpoint (Flink's setExternalizedCheckpointCleanup). */
  setExternalizedCheckpointCleanup(cleanup: ExternalizedCheckpointCleanup): this {
    this.#externalizedCleanup = requireOneOf(cleanup, ExternalizedCheckpointCleanup, 'externalized checkpoint cleanup', 'ExternalizedCheckpointCleanup');
    return this;
  }

  /** Flink's older name for setExternalizedCheckpointCleanup. */
  enableExternalizedCheckpoints(cleanup: ExternalizedCheckpointCleanup): this {
    return this.setExternalizedCheckpointCleanup(cleanup);
  }

  /** Whether barriers may overtake buffered records (unaligned checkpoints). */
  isUnalignedCheckpointsEnabled(): boolean | undefined {
    return this.#unaligned;
  }

  /**
   * Unaligned checkpoints: a barrier overtakes the data queued before it, and that data is
   * saved with the checkpoint, so checkpoints stay fast under backpressure and exactly-once
   * holds. Needs EXACTLY_ONCE and one concurrent checkpoint.
   */
  enableUnalignedCheckpoints(enabled = true): this {
    if (typeof enabled !== 'boolean') {
      throw new WeirError(ApiErrorCode.INVALID_CHECKPOINT_CONFIG, `enableUnalignedCheckpoints takes true or false, got ${String(enabled)}`);
    }
    this.#unaligned = enabled;
    return this;
  }

  /** With unaligned checkpoints: how long a checkpoint starts aligned before switching (ms). */
  getAlignedCheckpointTimeout(): number | undefined {
    return this.#alignedCheckpointTimeoutMs;
  }

  /** With unaligned checkpoints: each checkpoint starts aligned and switches to unaligned once alignment took `timeoutMs`; 0 is unaligned from the start. */
  setAlignedCheckpointTimeout(timeoutMs: number): this {
    this.#alignedCheckpointTimeoutMs = requireAtLeast(timeoutMs, 0, 'aligned checkpoint timeout', 'ms');
    return this;
  }

  /** What goes into the StreamGraph: undefined unless an interval was set, and only the settings the job made. */
  toSettings(): CheckpointSettings | undefined {
    if (this.#intervalMs === undefined) return undefined;
    return Object.freeze({
      intervalMs: this.#intervalMs,
      ...(this.#mode !== undefined && { mode: this.#mode }),
      ...(this.#minPauseMs !== undefined && { minPauseMs: this.#minPauseMs }),
      ...(this.#timeoutMs !== undefined && { timeoutMs: this.#timeoutMs }),
      ...(this.#maxConcurrent !== undefined && { maxConcurrent: this.#maxConcurrent }),
      ...(this.#tolerableFailures !== undefined && { tolerableFailures: this.#tolerableFailures }),
      ...(this.#externalizedCleanup !== undefined && { externalizedCleanup: this.#externalizedCleanup }),
      ...(this.#unaligned !== undefined && { unaligned: this.#unaligned }),
      ...(this.#alignedCheckpointTimeoutMs !== undefined && { alignedCheckpointTimeoutMs: this.#alignedCheckpointTimeoutMs }),
    });
  }
}

function requireAtLeast(value: number, min: number, what: string, unit: string): number {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new WeirError(ApiErrorCode.INVALID_CHECKPOINT_CONFIG, `${what} must be a whole number of ${unit} >= ${min}, got ${String(value)}`);
  }
  return value;
}

function requireOneOf<V extends string>(value: V, allowed: Readonly<Record<string, V>>, what: string, constName: string): V {
  const values = Object.values(allowed);
  if (!values.includes(value)) {
    throw new WeirError(
      ApiErrorCode.INVALID_CHECKPOINT_CONFIG,
      `${what} must be one of ${values.map((v) => `${constName}.${v}`).join(', ')}, got ${String(value)}`,
    );
  }
  return value;
}
