import type { WeirError } from '@weir/common';
import { TaskFailure, type FailureOrigin } from './task-failure.ts';

/** One failure as the REST API shows it (Flink's ExceptionInfo). */
export interface RecordedFailure {
  readonly timestampMs: number;
  readonly code: string;
  readonly message: string;
  /** Set when one subtask reported it. */
  readonly origin: FailureOrigin | undefined;
}

/** The first failure of an attempt, which decided what followed, and the ones that came with it. */
export interface FailureEntry extends RecordedFailure {
  readonly attempt: number;
  readonly concurrent: readonly RecordedFailure[];
  /** What the restart strategy decided: the delay before the next attempt, 'failed' when the job FAILED, undefined until it decided. */
  readonly restart: number | 'failed' | undefined;
}

/** The root failures of a job's attempts, newest first, at most `capacity` of them (Flink's exception history). */
export class ExceptionHistory {
  readonly #entries: { attempt: number; root: RecordedFailure; concurrent: RecordedFailure[]; restart: number | 'failed' | undefined }[] = [];
  #truncated = false;

  constructor(private readonly capacity = 16) {}

  /** A failure of `attempt`: the root of a new entry when `isRoot`, else one that came with the attempt's root. */
  add(failure: WeirError, timestampMs: number, attempt: number, isRoot: boolean): void {
    const recorded: RecordedFailure = {
      timestampMs,
      code: failure.code,
      message: failure.message,
      origin: failure instanceof TaskFailure ? failure.origin : undefined,
    };
    const latest = this.#entries[0];
    if (!isRoot && latest !== undefined && latest.attempt === attempt) {
      latest.concurrent.push(recorded);
      return;
    }
    this.#entries.unshift({ attempt, root: recorded, concurrent: [], restart: undefined });
    if (this.#entries.length > this.capacity) {
      this.#entries.pop();
      this.#truncated = true;
    }
  }

  /** What followed `attempt`'s failure: a restart after `delayMs`, or (undefined) the job failed. */
  decided(attempt: number, delayMs: number | undefined): void {
    const latest = this.#entries[0];
    if (latest !== undefined && latest.attempt === attempt) latest.restart = delayMs ?? 'failed';
  }

  /** Newest first. */
  entries(): readonly FailureEntry[] {
    return this.#entries.map(({ attempt, root, concurrent, restart }) => ({ ...root, attempt, concurrent: [...concurrent], restart }));
  }

  /** Older entries were dropped. */
  get truncated(): boolean {
    return this.#truncated;
  }
}
