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
      requireBounded(resource, node.name);
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
  if (claimed.size > MAX_CLAIMS) throw new WeirError(CommonErrorCode.INVALID_JOB, `the job's sinks claim ${claimed.size} exclusive resources; at most ${MAX_CLAIMS} are kept per job`);
  return [...claimed.values()].map((c) => c.resource);
}

/** Claims travel in every JobDetails and are compared at every submission: a job keeps a few, each a short name. */
const MAX_CLAIMS = 64;
const MAX_FIELD_CHARS = 1024;

function requireBounded(resource: ExclusiveResource, sink: string): void {
  for (const field of ['kind', 'scope', 'name', 'description'] as const) {
    const value: unknown = resource?.[field];
    if (typeof value !== 'string' || value.length > MAX_FIELD_CHARS) {
      throw new WeirError(CommonErrorCode.INVALID_JOB, `sink '${sink}' claims an exclusive resource whose ${field} is not a string of at most ${MAX_FIELD_CHARS} characters`);
    }
  }
}
