/** Receives the records a function emits; `collect` may be called any number of times per input. */
export interface Collector<T> {
  /** Emits one record downstream. */
  collect(record: T): void;
}
