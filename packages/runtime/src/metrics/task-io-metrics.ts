import type { OperatorMetricValue } from './operator-metric-values.ts';

/**
 * A task's input/output counters and where its time goes, with Flink's names. Counted per
 * buffer (records and bytes) and per wait (idle, back-pressured), never per record, so
 * counting costs nothing measurable. The TaskManager reads them (`TaskMetricsSample`) to
 * report rates and totals; busy time is what is neither idle nor back-pressured.
 */
export class TaskIOMetrics {
  /** Records and bytes of the buffers this task took from its input channels. */
  numRecordsIn = 0;
  numBytesIn = 0;
  /** Records and bytes of the buffers this task wrote for its consumers (a broadcast buffer counts once). */
  numRecordsOut = 0;
  numBytesOut = 0;
  #idleMs = 0;
  #backPressuredMs = 0;
  /** The wait in progress: what for and since when. */
  #waiting: 'idle' | 'back-pressured' | undefined;
  #waitStart = 0;

  /** The task waits for input (idle) or for its output queues to drain (back-pressured). */
  startWait(kind: 'idle' | 'back-pressured', now: number): void {
    this.#waiting = kind;
    this.#waitStart = now;
  }

  endWait(now: number): void {
    if (this.#waiting === 'idle') this.#idleMs += now - this.#waitStart;
    else if (this.#waiting === 'back-pressured') this.#backPressuredMs += now - this.#waitStart;
    this.#waiting = undefined;
  }

  /** Time the task waited for input, including a wait still going on. */
  idleTimeMs(now: number): number {
    return this.#idleMs + (this.#waiting === 'idle' ? now - this.#waitStart : 0);
  }

  /** Time the task waited for output capacity, including a wait still going on. */
  backPressuredTimeMs(now: number): number {
    return this.#backPressuredMs + (this.#waiting === 'back-pressured' ? now - this.#waitStart : 0);
  }

  /** The counters at `now`, with the task's queues as they are. */
  sample(now: number, runningTimeMs: number, currentInputWatermark: number, queues: TaskQueues, operators: readonly OperatorMetricsSample[]): TaskMetricsSample {
    const { inputBuffers, inputCapacity, outputBuffers, outputCapacity } = queues;
    return {
      numRecordsIn: this.numRecordsIn,
      numBytesIn: this.numBytesIn,
      numRecordsOut: this.numRecordsOut,
      numBytesOut: this.numBytesOut,
      idleTimeMs: this.idleTimeMs(now),
      backPressuredTimeMs: this.backPressuredTimeMs(now),
      runningTimeMs,
      inputQueueLength: inputBuffers,
      outputQueueLength: outputBuffers,
      inPoolUsage: inputCapacity === 0 ? 0 : Math.min(1, inputBuffers / inputCapacity),
      outPoolUsage: outputCapacity === 0 ? 0 : Math.min(1, outputBuffers / outputCapacity),
      currentInputWatermark,
      operators,
    };
  }
}

/** A task's queues: the buffers in them and how many they may hold (0 when the task has none). */
export interface TaskQueues {
  /** Received buffers whose credit has not gone back. */
  readonly inputBuffers: number;
  readonly inputCapacity: number;
  /** Buffers in the subpartition queues, not yet handed to a consumer. */
  readonly outputBuffers: number;
  readonly outputCapacity: number;
}

/** The counters at one moment, with the queues as they are then. */
export interface TaskMetricsSample {
  readonly numRecordsIn: number;
  readonly numBytesIn: number;
  readonly numRecordsOut: number;
  readonly numBytesOut: number;
  readonly idleTimeMs: number;
  readonly backPressuredTimeMs: number;
  /** Since the task started running. */
  readonly runningTimeMs: number;
  readonly inputQueueLength: number;
  readonly outputQueueLength: number;
  /** The queues as a share (0..1) of what they may hold. */
  readonly inPoolUsage: number;
  readonly outPoolUsage: number;
  /** The task's input watermark (ms); -Infinity before the first. */
  readonly currentInputWatermark: number;
  /** The metrics of the chain's operators, head first. */
  readonly operators: readonly OperatorMetricsSample[];
}

/** One operator's metrics at one moment. */
export interface OperatorMetricsSample {
  readonly operatorId: string;
  readonly operatorName: string;
  readonly values: readonly OperatorMetricValue[];
}
