import { JobStatus, type TimerHandle } from '@weir/common';
import type { JobClient } from '../client/job-client.ts';
import type { CliContext } from '../context.ts';
import { formatTime } from '../format/time.ts';

/** How often a job still waiting for slots is reported again. */
export const SLOT_WAIT_REPORT_MS = 10_000;

/**
 * While a followed job waits for slots (CREATED, or RESTARTING once its restart delay is over),
 * says how many it needs and how many are free: at once, then every 10 s. Says nothing while
 * enough are free (the job is about to deploy). Best effort: a failed lookup only skips a line.
 */
export class SlotWaitReporter {
  #timer: TimerHandle | undefined;
  #generation = 0;

  constructor(
    private readonly client: JobClient,
    private readonly jobId: string,
    private readonly context: CliContext,
  ) {}

  statusChanged(status: string, restartDelayMs: number): void {
    this.stop();
    if (status === JobStatus.CREATED) this.#round(this.#generation);
    else if (status === JobStatus.RESTARTING) this.#schedule(this.#generation, restartDelayMs + SLOT_WAIT_REPORT_MS);
  }

  stop(): void {
    this.#generation++;
    if (this.#timer !== undefined) this.context.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(generation: number, delayMs: number): void {
    this.#timer = this.context.clock.setTimeout(() => this.#round(generation), delayMs);
  }

  #round(generation: number): void {
    void this.#report(generation).then(() => {
      if (generation === this.#generation) this.#schedule(generation, SLOT_WAIT_REPORT_MS);
    });
  }

  async #report(generation: number): Promise<void> {
    try {
      const [details, overview] = await Promise.all([this.client.get(this.jobId), this.client.overview()]);
      const needed = Math.max(0, ...details.vertices.map((vertex) => vertex.parallelism));
      if (generation !== this.#generation || overview.slotsFree >= needed) return;
      this.context.out(`${formatTime(this.context.clock.now())}  Job ${this.jobId} is waiting for ${needed} slots (${overview.slotsFree} free)`);
    } catch {
      // The next round tries again; the status stream reports what matters.
    }
  }
}
