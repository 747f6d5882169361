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

  /** The sink's stable ID, which its state in savepoints is matched by (Flink's uid). */
  uid(uid: string): this {
    this.#builder.setUid(this.#node, uid);
    return this;
  }

  /** Names the sink in the plan, metrics and logs (Flink's name). */
  name(name: string): this {
    this.#node.name = requireName(name);
    return this;
  }

  /** The sink's parallelism (Flink's setParallelism). */
  setParallelism(parallelism: number): this {
    this.#node.parallelism = requireParallelism(parallelism, `sink '${this.#node.name}'`);
    return this;
  }
}
