import type { JobBuilder } from './job-builder.ts';
import type { Transformation } from './transformation.ts';
import { requireName, requireParallelism } from './validation.ts';

/** What `sinkTo` returns: the sink operator's settings (Flink's DataStreamSink). */
export class DataStreamSink<T> {
  readonly #builder: JobBuilder;
  readonly #node: Transformation;

  constructor(builder: JobBuilder, node: Transformation) {
    this.#builder = builder;
    this.#node = node;
  }

  uid(uid: string): this {
    this.#builder.setUid(this.#node, uid);
    return this;
  }

  name(name: string): this {
    this.#node.name = requireName(name);
    return this;
  }

  setParallelism(parallelism: number): this {
    this.#node.parallelism = requireParallelism(parallelism, `sink '${this.#node.name}'`);
    return this;
  }
}
