/**
 * How a source assigns event-time timestamps and emits watermarks (Flink's
 * WatermarkStrategy). Only `noWatermarks()` exists so far: processing time only.
 */
export class WatermarkStrategy<T> {
  /** Phantom field carrying T, so a strategy matches its source's record type. */
  declare readonly __type?: T;

  private constructor() {}

  static noWatermarks<T>(): WatermarkStrategy<T> {
    return new WatermarkStrategy<T>();
  }
}
