import { CommonErrorCode, WeirError } from '@weir/common';
import { isSplitSource } from '../connector/splits.ts';
import type { ExclusiveResource } from '../connector/types.ts';
import type { StreamGraph } from './stream-graph.ts';

/** Two claims are the same thing when these are. */
export function exclusiveResourceKey(resource: ExclusiveResource): string {
  return JSON.stringify([resource.kind, resource.scope, resource.name]);
}

/**
 * What the job's sinks and split sources claim for the job alone (Sink.exclusiveResources,
 * SplitSource.exclusiveResources). Two of one job claiming the same thing are the submitter's
 * error: two sinks would abort each other's transactions, two sources take each other's changes.
 */
export function exclusiveResources(graph: StreamGraph): ExclusiveResource[] {
  const claimed = new Map<string, { resource: ExclusiveResource; owner: string; sink: boolean }>();
  for (const node of graph.nodes) {
    const spec = node.spec;
    const sink = spec.kind === 'sink';
    const resources = sink ? spec.sink.exclusiveResources?.() : spec.kind === 'source' && isSplitSource(spec.source) ? spec.source.exclusiveResources?.() : undefined;
    for (const resource of resources ?? []) {
      requireBounded(resource, node.name, sink);
      const key = exclusiveResourceKey(resource);
      const earlier = claimed.get(key);
      if (earlier !== undefined) {
        throw new WeirError(
          CommonErrorCode.INVALID_JOB,
          earlier.sink && sink
            ? `sinks '${earlier.owner}' and '${node.name}' both use ${resource.description}: each aborts the other's lingering transactions when it starts; give each sink its own`
            : `'${earlier.owner}' and '${node.name}' both use ${resource.description}, which one of them must use alone; give each its own`,
        );
      }
      const { kind, scope, name, description, leftBehind } = resource;
      claimed.set(key, { resource: { kind, scope, name, description, ...(leftBehind === undefined ? {} : { leftBehind }) }, owner: node.name, sink });
    }
  }
  if (claimed.size > MAX_CLAIMS) throw new WeirError(CommonErrorCode.INVALID_JOB, `the job's sinks claim ${claimed.size} exclusive resources; at most ${MAX_CLAIMS} are kept per job`);
  return [...claimed.values()].map((c) => c.resource);
}

/** Claims travel in every JobDetails and are compared at every submission: a job keeps a few, each a short name. */
const MAX_CLAIMS = 64;
const MAX_FIELD_CHARS = 1024;

function requireBounded(resource: ExclusiveResource, owner: string, sink: boolean): void {
  for (const field of ['kind', 'scope', 'name', 'description', 'leftBehind'] as const) {
    const value: unknown = resource?.[field];
    if (field === 'leftBehind' && value === undefined) continue;
    if (typeof value !== 'string' || value.length > MAX_FIELD_CHARS) {
      throw new WeirError(CommonErrorCode.INVALID_JOB, `${sink ? 'sink' : 'source'} '${owner}' claims an exclusive resource whose ${field} is not a string of at most ${MAX_FIELD_CHARS} characters`);
    }
  }
}
