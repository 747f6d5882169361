import { CommonErrorCode, WeirError } from '@weir/common';
import type { ExclusiveResource } from '../connector/types.ts';
import type { StreamGraph } from './stream-graph.ts';

/** Two claims are the same thing when these are. */
export function exclusiveResourceKey(resource: ExclusiveResource): string {
  return JSON.stringify([resource.kind, resource.scope, resource.name]);
}

/**
 * What the job's sinks claim for the job alone (Sink.exclusiveResources). Two sinks of one job
 * claiming the same thing are the submitter's error: each would abort the other's transactions.
 */
export function exclusiveResources(graph: StreamGraph): ExclusiveResource[] {
  const claimed = new Map<string, { resource: ExclusiveResource; sink: string }>();
  for (const node of graph.nodes) {
    if (node.spec.kind !== 'sink') continue;
    for (const resource of node.spec.sink.exclusiveResources?.() ?? []) {
      const key = exclusiveResourceKey(resource);
      const earlier = claimed.get(key);
      if (earlier !== undefined) {
        throw new WeirError(
          CommonErrorCode.INVALID_JOB,
          `sinks '${earlier.sink}' and '${node.name}' both use ${resource.description}: each aborts the other's lingering transactions when it starts; give each sink its own`,
        );
      }
      claimed.set(key, { resource: { kind: resource.kind, scope: resource.scope, name: resource.name, description: resource.description }, sink: node.name });
    }
  }
  return [...claimed.values()].map((c) => c.resource);
}
