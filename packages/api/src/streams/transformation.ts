import type { KeySelector } from '../functions/types.ts';
import type { OperatorSpec, PartitionerKind } from '../graph/stream-graph.ts';
import type { TypeInformation } from '../types/type-information.ts';

/**
 * What a stream reads through: the node producing it and, when set, how records are
 * partitioned on the way. `partitioner` undefined means "the default": FORWARD when both
 * sides end up with equal parallelism, else REBALANCE. It is only resolved when the graph
 * is built, because `.setParallelism()` may still change either side.
 */
export interface StreamRef {
  readonly node: Transformation;
  readonly partitioner: PartitionerKind | undefined;
  readonly keySelector?: KeySelector<unknown, unknown>;
  /** Reads the node's side output of this tag ID instead of its main output. */
  readonly outputTag?: string;
}

export interface TransformationInput extends StreamRef {
  readonly inputIndex: 0 | 1;
}

/**
 * A node while the job's main is still running: name, uid and parallelism stay settable
 * until the StreamGraph is generated from it.
 */
export class Transformation {
  name: string;
  uid: string | undefined;
  /** Undefined: the environment's parallelism at build time. */
  parallelism: number | undefined;
  /** Undefined: the environment's, else derived from the parallelism. */
  maxParallelism: number | undefined;
  /** The declared type of the records it emits (`returns()`, a source's producedType); undefined when not declared. */
  outputType: TypeInformation<unknown> | undefined = undefined;
  /** The declared types of its side outputs, by tag ID (an OutputTag given a type). */
  readonly sideOutputTypes = new Map<string, TypeInformation<unknown>>();

  constructor(
    readonly id: number,
    readonly spec: OperatorSpec,
    name: string,
    readonly inputs: readonly TransformationInput[],
  ) {
    this.name = name;
  }
}

export function inputsFrom(refs: readonly StreamRef[], inputIndex: 0 | 1): TransformationInput[] {
  return refs.map((ref) => ({ ...ref, inputIndex }));
}
