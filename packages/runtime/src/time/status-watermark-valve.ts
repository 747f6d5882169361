/** Where a valve's combined watermark and idleness go: the task's head operator. */
export interface ValveOutput {
  emitWatermark(timestamp: number): void;
  emitWatermarkStatus(idle: boolean): void;
}

interface ChannelStatus {
  watermark: number;
  idle: boolean;
  /**
   * The channel counts for the minimum: it is active and its watermark has caught up with
   * the last output. A channel that returns from idleness behind the output does not pull
   * the watermark back (watermarks never go down); it counts again once it caught up.
   */
  aligned: boolean;
}

/**
 * A task's input watermark from its channels' watermarks and idleness (Flink's
 * StatusWatermarkValve): the minimum over the channels that are active, output only when it
 * rises. An idle channel does not hold the watermark back; when every channel is idle the
 * task is idle too, after flushing the highest watermark any channel reached. One valve per
 * task covers both inputs of a two-input operator: the minimum over all channels is the
 * minimum of the inputs' minimums.
 */
export class StatusWatermarkValve {
  readonly #channels: ChannelStatus[];
  #lastOutput = Number.NEGATIVE_INFINITY;
  #idle = false;

  constructor(
    channels: number,
    private readonly output: ValveOutput,
  ) {
    this.#channels = Array.from({ length: channels }, () => ({ watermark: Number.NEGATIVE_INFINITY, idle: false, aligned: true }));
  }

  /** The watermark last output: -Infinity before the first. */
  get currentWatermark(): number {
    return this.#lastOutput;
  }

  get isIdle(): boolean {
    return this.#idle;
  }

  inputWatermark(timestamp: number, channel: number): void {
    const status = this.#channels[channel]!;
    // A watermark on an idle channel is ignored, as in Flink: its producer marks it active first.
    if (status.idle || timestamp <= status.watermark) return;
    status.watermark = timestamp;
    if (!status.aligned && timestamp >= this.#lastOutput) status.aligned = true;
    this.#outputMinimum();
  }

  inputWatermarkStatus(idle: boolean, channel: number): void {
    const status = this.#channels[channel]!;
    if (idle === status.idle) return;
    if (idle) {
      status.idle = true;
      status.aligned = false;
      if (this.#channels.every((c) => c.idle)) {
        this.#outputMaximum();
        this.#idle = true;
        this.output.emitWatermarkStatus(true);
      } else if (status.watermark === this.#lastOutput) {
        // It may have been the one holding the minimum back.
        this.#outputMinimum();
      }
      return;
    }
    status.idle = false;
    if (status.watermark >= this.#lastOutput) status.aligned = true;
    if (this.#idle) {
      this.#idle = false;
      this.output.emitWatermarkStatus(false);
    }
  }

  #outputMinimum(): void {
    let minimum = Number.POSITIVE_INFINITY;
    let any = false;
    for (const c of this.#channels) {
      if (!c.aligned) continue;
      any = true;
      if (c.watermark < minimum) minimum = c.watermark;
    }
    if (any && minimum > this.#lastOutput) {
      this.#lastOutput = minimum;
      this.output.emitWatermark(minimum);
    }
  }

  #outputMaximum(): void {
    let maximum = Number.NEGATIVE_INFINITY;
    for (const c of this.#channels) if (c.watermark > maximum) maximum = c.watermark;
    if (maximum > this.#lastOutput) {
      this.#lastOutput = maximum;
      this.output.emitWatermark(maximum);
    }
  }
}
