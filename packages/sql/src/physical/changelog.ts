import { SqlError, SqlErrorCode } from '../errors.ts';
import type { LogicalNode } from '../logical/nodes.ts';
import { describeNode } from './describe.ts';

/**
 * What kinds of rows a stream carries (Flink's ChangelogMode): insert-only (+I); retract
 * (+I, -U, +U, -D: an update is the old row retracted, then the new one). Flink's third,
 * upsert (no -U, by key), comes with the first sink that asks for it (upsert-kafka).
 */
export type ChangelogMode = 'insert-only' | 'retract';

export function modeToString(mode: ChangelogMode): string {
  return mode === 'insert-only' ? 'I' : 'I,UB,UA,D';
}

/** A logical node with the changelog mode it produces: the physical plan. */
export interface PhysicalNode {
  readonly node: LogicalNode;
  readonly mode: ChangelogMode;
  readonly inputs: readonly PhysicalNode[];
}

/** Derives every operator's changelog mode, bottom up, refusing operators that cannot take their input's. */
export function toPhysical(node: LogicalNode): PhysicalNode {
  const inputs = node.kind === 'scan' ? [] : [toPhysical(node.input)];
  const inputMode = inputs[0]?.mode ?? 'insert-only';
  switch (node.kind) {
    case 'scan':
      return { node, mode: 'insert-only', inputs };
    case 'calc':
      return { node, mode: inputMode, inputs };
    case 'windowTvf':
    case 'windowAggregate':
    case 'aggregate':
      if (inputMode !== 'insert-only') {
        throw new SqlError(
          SqlErrorCode.SQL_UNSUPPORTED,
          `${describeNode(node)} over the updates of ${describeNode(inputs[0]!.node)} is not supported by Weir's SQL yet: its input must be insert-only`,
        );
      }
      return { node, mode: node.kind === 'aggregate' ? 'retract' : 'insert-only', inputs };
  }
}

/** The operator nearest the sink that turns an insert-only stream into an updating one. */
export function updateProducer(plan: PhysicalNode): PhysicalNode | undefined {
  if (plan.mode === 'insert-only') return undefined;
  for (const input of plan.inputs) {
    const deeper = updateProducer(input);
    if (deeper !== undefined) return deeper;
  }
  return plan;
}

/** Refuses an updating plan for a sink that takes appends only, naming the operator that produces updates. */
export function checkSinkAccepts(plan: PhysicalNode, sinkTable: string, accepts: 'insert-only' | 'all', connector: string): void {
  if (accepts === 'all' || plan.mode === 'insert-only') return;
  const producer = updateProducer(plan)!;
  throw new SqlError(
    SqlErrorCode.SQL_UPDATES_NOT_ACCEPTED,
    `Table sink 'default_catalog.default_database.${sinkTable}' (connector '${connector}') doesn't support consuming update changes which is produced by node ${describeNode(producer.node)}; ` +
      `write it to a sink that takes updates ('print', 'blackhole', or 'upsert-kafka' with a PRIMARY KEY), or aggregate over a window TVF (TUMBLE, HOP, CUMULATE) for insert-only results`,
  );
}
