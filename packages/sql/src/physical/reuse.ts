import { nodeInputs, type LogicalNode } from '../logical/nodes.ts';
import type { PhysicalNode } from './changelog.ts';

/**
 * Sub-plan reuse (Flink's table.optimizer.reuse-sub-plan-enabled, on by default): two subtrees
 * of a plan that compute the same thing from the same source are one set of operators whose
 * output goes to both readers. Nexmark q5 reads the same HOP count twice; reused, each bid is
 * counted once. Scans were already merged per table (reuseScans), so equal subtrees above them
 * are found by their structure.
 *
 * The digest is the node's whole structure as JSON (bigints as text): equal digests compute equal
 * rows. A subtree that calls a user-defined function (which may not be deterministic) or looks
 * rows up in an external table (which may change between the two reads) has none: it is never shared.
 */
export function reuseDigest(node: LogicalNode): string | undefined {
  let shareable = true;
  const text = JSON.stringify(node, (key, value: unknown) => {
    if (key === 'udf' || (key === 'kind' && value === 'lookupJoin')) shareable = false;
    return typeof value === 'bigint' ? `${value}n` : value;
  });
  return shareable ? text : undefined;
}

/**
 * The subtrees read more than once, by digest, each with its reuse id (1, 2, .. in plan order,
 * as EXPLAIN's `reuse_id`): walking the plan in pre-order, a subtree whose digest was seen
 * before is a reuse of it and is not walked into.
 */
export function reusedSubplans(plan: PhysicalNode): Map<string, number> {
  const seen = new Set<string>();
  const reused: string[] = [];
  // As the translation does: an operator's second input equal to its first is made again, not reused.
  const visit = (node: PhysicalNode, siblings: readonly (string | undefined)[] = []): void => {
    const digest = reuseDigest(node.node);
    if (digest !== undefined && seen.has(digest) && !siblings.includes(digest)) {
      if (!reused.includes(digest)) reused.push(digest);
      return;
    }
    if (digest !== undefined) seen.add(digest);
    node.inputs.forEach((input, i) => visit(input, node.inputs.slice(0, i).map((n) => reuseDigest(n.node))));
  };
  visit(plan);
  // Numbered by where each first appears in the plan, as Flink numbers them.
  const order: string[] = [];
  const number = (node: PhysicalNode, siblings: readonly (string | undefined)[] = []): void => {
    const digest = reuseDigest(node.node);
    if (digest !== undefined && reused.includes(digest)) {
      if (order.includes(digest) && !siblings.includes(digest)) return;
      if (!order.includes(digest)) order.push(digest);
    }
    node.inputs.forEach((input, i) => number(input, node.inputs.slice(0, i).map((n) => reuseDigest(n.node))));
  };
  number(plan);
  return new Map(order.map((digest, i) => [digest, i + 1]));
}

/** How many nodes a subtree has (a reused one's are not made again, but keep their place in the uid numbering). */
export function subtreeSize(node: LogicalNode): number {
  return 1 + nodeInputs(node).reduce((n, input) => n + subtreeSize(input), 0);
}
