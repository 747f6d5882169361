import type { Clock } from '@weir/common';
import type { TaskInput } from '../input/task-input.ts';
import type { TaskIOMetrics } from '../metrics/task-io-metrics.ts';
import type { OutputAvailability } from '../network/output-availability.ts';
import type { PendingWork } from '../operators/pending-work.ts';
import type { Mailbox } from './mailbox.ts';

/** At most this many records between two looks at the clock; fewer for slow records, so a slow operator still yields every few ms. */
const CLOCK_CHECK_EVERY = 256;
/** Give the event loop a turn (gRPC, credits, timers) after this many records... */
const YIELD_EVERY_RECORDS = 4096;
/** ...or this many milliseconds, whichever comes first. */
const YIELD_EVERY_MS = 5;

export type LoopOutcome = 'end-of-input' | 'stopped';

/**
 * The task's main loop, Flink's mailbox model: between any two records it runs the queued
 * mail, then waits if a sink write is pending, an operator of the chain is at capacity or the
 * output is full, else takes one record.
 * Nothing on the per-record path allocates or awaits.
 */
export class TaskLoop {
  #stopped = false;

  constructor(
    private readonly mailbox: Mailbox,
    private input: TaskInput,
    private readonly output: OutputAvailability,
    private readonly work: PendingWork,
    private readonly clock: Clock,
    /** Where the loop's waits for output capacity (back pressure) and for input (idle) are added up. */
    private readonly metrics: TaskIOMetrics,
  ) {}

  /** The input of the next `run`: after end of data, the task runs on with an input that only takes events. */
  setInput(input: TaskInput): void {
    this.input = input;
  }

  /** Makes the loop return 'stopped' before its next record. */
  stop(): void {
    this.#stopped = true;
    this.mailbox.put(() => {});
  }

  async run(): Promise<LoopOutcome> {
    const { mailbox, input, output, work, clock, metrics } = this;
    let sinceYield = 0;
    let sinceCheck = 0;
    let checkEvery = CLOCK_CHECK_EVERY;
    let sliceStart = clock.now();
    for (;;) {
      if (mailbox.hasMail) mailbox.runAll();
      if (this.#stopped) return 'stopped';
      if (work.count !== 0) {
        await mailbox.waitFor(work.drain());
        continue;
      }
      if (work.chain.blocked !== 0) {
        // An operator of the chain is at capacity; its completions are mail, run while this waits.
        metrics.startWait('back-pressured', clock.now());
        await mailbox.waitFor(work.chain.whenUnblocked());
        metrics.endWait(clock.now());
        continue;
      }
      if (output.blocked !== 0) {
        metrics.startWait('back-pressured', clock.now());
        await mailbox.waitFor(output.whenAvailable());
        metrics.endWait(clock.now());
        continue;
      }
      const status = input.emitNext();
      if (status === 'more-available') {
        sinceYield++;
        if (++sinceCheck < checkEvery) continue;
        sinceCheck = 0;
        const elapsed = clock.now() - sliceStart;
        // The TaskManager's event loop (gRPC, heartbeats, barriers) waits while a slice runs: keep slices near YIELD_EVERY_MS.
        checkEvery = Math.max(1, Math.min(CLOCK_CHECK_EVERY, Math.floor((YIELD_EVERY_MS * sinceYield) / Math.max(elapsed, 0.001))));
        if (sinceYield >= YIELD_EVERY_RECORDS || elapsed >= YIELD_EVERY_MS) {
          await yieldToEventLoop();
          sinceYield = 0;
          sliceStart = clock.now();
        }
        continue;
      }
      if (status === 'end-of-input') return 'end-of-input';
      metrics.startWait('idle', clock.now());
      await mailbox.waitFor(input.whenAvailable());
      sinceYield = 0;
      sinceCheck = 0;
      sliceStart = clock.now();
      metrics.endWait(sliceStart);
    }
  }
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
