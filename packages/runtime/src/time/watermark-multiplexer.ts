import { Watermark, type WatermarkOutput } from '@weir/api';

/**
 * Combines the watermarks of several outputs into one (Flink's WatermarkOutputMultiplexer):
 * a source reader's split outputs. The combined watermark is the minimum over the outputs
 * that are not idle; when every output is idle, the combined output is idle. Outputs join
 * with `register` and leave with `unregister` (a finished split no longer holds it back).
 */
export class WatermarkMultiplexer {
  readonly #outputs = new Map<string, PartialOutput>();

  constructor(private readonly combined: WatermarkOutput) {}

  register(id: string): WatermarkOutput {
    let output = this.#outputs.get(id);
    if (output === undefined) {
      output = new PartialOutput(() => this.#update());
      this.#outputs.set(id, output);
    }
    return output;
  }

  unregister(id: string): void {
    if (this.#outputs.delete(id)) this.#update();
  }

  #update(): void {
    let minimum = Number.POSITIVE_INFINITY;
    let active = 0;
    for (const output of this.#outputs.values()) {
      if (output.idle) continue;
      active++;
      if (output.watermark < minimum) minimum = output.watermark;
    }
    if (active === 0) {
      if (this.#outputs.size !== 0) this.combined.markIdle();
      return;
    }
    this.combined.markActive();
    if (minimum !== Number.NEGATIVE_INFINITY) this.combined.emitWatermark(new Watermark(minimum));
  }
}

class PartialOutput implements WatermarkOutput {
  watermark = Number.NEGATIVE_INFINITY;
  idle = false;

  constructor(private readonly changed: () => void) {}

  emitWatermark(watermark: Watermark): void {
    const wasIdle = this.idle;
    this.idle = false;
    if (watermark.timestamp > this.watermark) this.watermark = watermark.timestamp;
    else if (!wasIdle) return;
    this.changed();
  }

  markIdle(): void {
    if (this.idle) return;
    this.idle = true;
    this.changed();
  }

  markActive(): void {
    if (!this.idle) return;
    this.idle = false;
    this.changed();
  }
}
