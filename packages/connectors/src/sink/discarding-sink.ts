import type { Sink, SinkWriter } from '@weir/api';

/** Drops every record (Flink's DiscardingSink); counts them, for benchmarks and tests. */
export class DiscardingSink<T> implements Sink<T> {
  #count = 0;

  /** Records dropped by the writers of this sink in this process. */
  get count(): number {
    return this.#count;
  }

  createWriter(): SinkWriter<T> {
    return {
      write: () => {
        this.#count++;
      },
      flush: () => {},
      close: () => {},
    };
  }
}
