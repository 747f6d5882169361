import { defaultMaxParallelism, WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { Transformation } from '../streams/transformation.ts';
import type { TypeInformation } from '../types/type-information.ts';
import { GeneratedOperatorIds, operatorIdForUid } from './operator-id.ts';
import { PartitionerKind, type ExecutionConfig, type StreamEdge, type StreamGraph, type StreamNode } from './stream-graph.ts';

/**
 * Turns the transformations a job's main recorded into the frozen StreamGraph: resolves
 * parallelism, max parallelism, default partitioners and operator IDs, and rejects
 * topologies that cannot run. Transformations come in creation order, and an operator is
 * always created after its inputs, so one pass in order sees every input resolved.
 */
export function generateStreamGraph(jobName: string, transformations: readonly Transformation[], config: ExecutionConfig): StreamGraph {
  if (!transformations.some((t) => t.spec.kind === 'source')) {
    throw new WeirError(ApiErrorCode.INVALID_GRAPH, 'the job defines no sources; call env.fromSource(...) in the job\'s main');
  }
  const ids = new GeneratedOperatorIds();
  const nodes: StreamNode[] = [];
  for (const t of transformations) {
    const parallelism = t.parallelism ?? config.parallelism;
    const maxParallelism = resolveMaxParallelism(t, parallelism, config);
    const inputs = t.inputs.map((input): StreamEdge => {
      const source = nodes[input.node.id]!;
      const partitioner = input.partitioner ?? (source.parallelism === parallelism ? PartitionerKind.FORWARD : PartitionerKind.REBALANCE);
      if (partitioner === PartitionerKind.FORWARD && source.parallelism !== parallelism) {
        throw new WeirError(
          ApiErrorCode.INVALID_GRAPH,
          `forward() joins '${source.name}' (parallelism ${source.parallelism}) to '${t.name}' (parallelism ${parallelism}); ` +
            'a forward edge needs equal parallelism: set it equal or use rebalance()',
        );
      }
      return Object.freeze({
        sourceId: source.id,
        targetId: t.id,
        inputIndex: input.inputIndex,
        partitioner,
        ...(partitioner === PartitionerKind.HASH ? { keySelector: input.keySelector } : {}),
        ...(input.outputTag === undefined ? {} : { outputTag: input.outputTag }),
      });
    });
    const operatorId =
      t.uid !== undefined
        ? operatorIdForUid(t.uid)
        : ids.next(
            t.spec.kind,
            inputs.map((e) => ({ operatorId: nodes[e.sourceId]!.operatorId, inputIndex: e.inputIndex })),
          );
    nodes.push(
      Object.freeze({
        id: t.id,
        spec: t.spec,
        name: t.name,
        uid: t.uid,
        operatorId,
        parallelism,
        maxParallelism,
        inputs: Object.freeze(inputs),
        outputType: t.outputType ?? passedThroughType(t, inputs, nodes),
        sideOutputTypes: t.sideOutputTypes,
      }),
    );
  }
  return Object.freeze({ jobName, nodes: Object.freeze(nodes), config: Object.freeze({ ...config }) });
}

/**
 * A filter, a reduce or a timestamp assigner emits records of its input's type: the declared
 * type of its inputs, when they all declare the same.
 */
function passedThroughType(t: Transformation, inputs: readonly StreamEdge[], nodes: readonly StreamNode[]): TypeInformation<unknown> | undefined {
  if (t.spec.kind !== 'filter' && t.spec.kind !== 'reduce' && t.spec.kind !== 'timestampsAndWatermarks') return undefined;
  const types = new Set(inputs.map((e) => (e.outputTag === undefined ? nodes[e.sourceId]!.outputType : nodes[e.sourceId]!.sideOutputTypes.get(e.outputTag))));
  return types.size === 1 ? [...types][0] : undefined;
}

function resolveMaxParallelism(t: Transformation, parallelism: number, config: ExecutionConfig): number {
  const own = t.maxParallelism;
  const maxParallelism = own ?? (config.maxParallelism === -1 ? defaultMaxParallelism(parallelism) : config.maxParallelism);
  if (maxParallelism < parallelism) {
    // A derived default is never below the parallelism, so the limit came from a setter.
    const origin = own !== undefined ? 'its setMaxParallelism()' : "the environment's setMaxParallelism()";
    throw new WeirError(
      ApiErrorCode.INVALID_MAX_PARALLELISM,
      `operator '${t.name}' has parallelism ${parallelism} above its max parallelism ${maxParallelism} (from ${origin}); ` +
        'max parallelism must be at least the parallelism',
    );
  }
  return maxParallelism;
}
