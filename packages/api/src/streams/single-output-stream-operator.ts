import { requireType } from '../types/row-type.ts';
import type { TypeInformation } from '../types/type-information.ts';
import { DataStream } from './data-stream.ts';
import { requireOutputTag, type OutputTag } from '../functions/output-tag.ts';
import type { JobBuilder } from './job-builder.ts';
import type { Transformation } from './transformation.ts';
import { requireMaxParallelism, requireName, requireParallelism } from './validation.ts';

/** The stream an operator (or source) produces, with the settings of that operator (Flink's SingleOutputStreamOperator). */
export class SingleOutputStreamOperator<T> extends DataStream<T> {
  readonly #node: Transformation;

  constructor(builder: JobBuilder, node: Transformation) {
    super(builder, [{ node, partitioner: undefined }]);
    this.#node = node;
  }

  /**
   * A stable ID for this operator: its state is restored by it. Set one on every stateful
   * operator, so the job can change around it and still restore.
   */
  uid(uid: string): this {
    this.builder.setUid(this.#node, uid);
    return this;
  }

  /** Names the operator in the plan, metrics and logs (Flink's name). */
  name(name: string): this {
    this.#node.name = requireName(name);
    return this;
  }

  /** This operator's parallelism, overriding the job's default (Flink's setParallelism). */
  setParallelism(parallelism: number): this {
    this.#node.parallelism = requireParallelism(parallelism, `operator '${this.#node.name}'`);
    return this;
  }

  /** This operator's maximum parallelism: the number of key groups its keyed state is split into (Flink's setMaxParallelism). */
  setMaxParallelism(maxParallelism: number): this {
    this.#node.maxParallelism = requireMaxParallelism(maxParallelism, `operator '${this.#node.name}'`);
    return this;
  }

  /**
   * The values this operator's functions emitted with `ctx.output(tag, value)` (or a window's
   * late elements, with `sideOutputLateData(tag)`), as a stream of their own.
   */
  getSideOutput<X>(tag: OutputTag<X>): DataStream<X> {
    const { id, type } = requireOutputTag(tag, 'getSideOutput()');
    if (type !== undefined) this.#node.sideOutputTypes.set(id, requireType(type, `the type of OutputTag '${id}'`));
    return new DataStream<X>(this.builder, [{ node: this.#node, partitioner: undefined, outputTag: id }]);
  }

  /**
   * Declares the type of the records this operator emits (Flink's `returns`): the records are
   * checked against it and serialized by it between tasks, and arrive as declared (a
   * `Types.POJO(Class, ...)` keeps their class). Without it, records travel as they are, and
   * a value that cannot arrive unchanged (a class instance, a function) is refused.
   */
  returns(type: TypeInformation<T>): this {
    this.#node.outputType = requireType(type, `returns() of operator '${this.#node.name}'`);
    return this;
  }

  /** The operator's name. */
  getName(): string {
    return this.#node.name;
  }

  /** Undefined until set: the environment's parallelism applies then. */
  getParallelism(): number | undefined {
    return this.#node.parallelism;
  }
}
