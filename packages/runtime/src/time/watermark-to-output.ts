import type { Watermark, WatermarkOutput } from '@weir/api';

/** Where watermarks and idleness go from a generator: the rest of the chain. */
export interface WatermarkTarget {
  emitWatermark(timestamp: number): void;
  emitWatermarkStatus(idle: boolean): void;
}

/**
 * The WatermarkOutput a generator writes to (Flink's WatermarkToDataOutput): only watermarks
 * higher than every one before are passed on, and a watermark while idle first says active
 * again, so downstream valves count it.
 */
export class WatermarkToOutput implements WatermarkOutput {
  #max = Number.NEGATIVE_INFINITY;
  #idle = false;

  constructor(private readonly target: WatermarkTarget) {}

  get currentWatermark(): number {
    return this.#max;
  }

  emitWatermark(watermark: Watermark): void {
    this.emit(watermark.timestamp);
  }

  emit(timestamp: number): void {
    if (!(timestamp > this.#max)) return;
    this.#max = timestamp;
    this.markActive();
    this.target.emitWatermark(timestamp);
  }

  markIdle(): void {
    if (this.#idle) return;
    this.#idle = true;
    this.target.emitWatermarkStatus(true);
  }

  markActive(): void {
    if (!this.#idle) return;
    this.#idle = false;
    this.target.emitWatermarkStatus(false);
  }
}
