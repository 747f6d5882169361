import { SqlError, SqlErrorCode } from '../errors.ts';
import { nodeInputs, type AggCall, type LogicalNode } from '../logical/nodes.ts';
import { describeNode } from './describe.ts';
import { scanProducesUpserts } from '../connectors/registry.ts';

/**
 * What kinds of rows a stream carries (Flink's ChangelogMode): insert-only (+I); retract
 * (+I, -U, +U, -D: an update is the old row retracted, then the new one). Flink's third,
 * upsert (no -U, by key), is only at the ends: an upsert source is normalized into retract
 * rows, and an upsert sink drops the -U rows of its input.
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
  const inputs = nodeInputs(node).map(toPhysical);
  const inputMode: ChangelogMode = inputs.some((i) => i.mode === 'retract') ? 'retract' : 'insert-only';
  switch (node.kind) {
    case 'union':
      return { node, mode: inputMode, inputs };
    case 'join':
      // Interval and window joins emit each joined (or null-padded) row once: inserts over inserts.
      if (node.interval !== undefined || node.window !== undefined) {
        requireInsertOnly(node, inputs);
        return { node, mode: 'insert-only', inputs };
      }
      // An inner join of appends appends (Flink's StreamPhysicalJoin); an outer join retracts its null-padded rows.
      return { node, mode: node.joinType === 'INNER' ? inputMode : 'retract', inputs };
    case 'lookupJoin':
      // Stateless: each row's kind passes through with its matches (an updating input's -U finds the same matches its +I did, the table being fixed between reloads).
      return { node, mode: inputMode, inputs };
    case 'overAggregate':
      requireInsertOnly(node, inputs);
      return { node, mode: 'insert-only', inputs };
    case 'rank':
      if (node.limit === undefined) {
        throw new SqlError(
          SqlErrorCode.SQL_UNSUPPORTED,
          'ROW_NUMBER() OVER (..) without a filter on it is not supported by Weir\'s SQL: keep the first N rows of each partition with WHERE rn <= N around the query (Top-N), or rn = 1 (deduplication)',
          node.pos,
        );
      }
      requireInsertOnly(node, inputs);
      // A window Top-N emits a window's rows once, when it closes: nothing to update.
      return { node, mode: node.window === undefined ? 'retract' : 'insert-only', inputs };
    case 'scan':
      // An upsert source (upsert-kafka) is normalized by key into a retract changelog.
      return { node, mode: scanProducesUpserts(node.table) ? 'retract' : 'insert-only', inputs };
    case 'calc':
      return { node, mode: inputMode, inputs };
    case 'aggregate':
      // Over updates it retracts: -U/-D rows take back what they added (RetractGroupAggregateFunction).
      if (inputMode !== 'insert-only') refuseDistinct(node.aggs, 'over an updating input');
      return { node, mode: 'retract', inputs };
    case 'windowTvf':
    case 'windowAggregate':
      if (node.kind === 'windowAggregate') refuseDistinct(node.aggs, 'in a window aggregation');
      requireInsertOnly(node, inputs);
      return { node, mode: 'insert-only', inputs };
  }
}

/** DISTINCT aggregates run in the insert-only GroupAggregate only (its keyed map state of values seen). */
function refuseDistinct(aggs: readonly AggCall[], where: string): void {
  const call = aggs.find((a) => a.distinct);
  if (call === undefined) return;
  throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `${call.fn}(DISTINCT ..) ${where} is not supported by Weir's SQL yet`, call.pos);
}

function requireInsertOnly(node: LogicalNode, inputs: readonly PhysicalNode[]): void {
  const updating = inputs.find((i) => i.mode !== 'insert-only');
  if (updating === undefined) return;
  throw new SqlError(
    SqlErrorCode.SQL_UNSUPPORTED,
    `${describeNode(node)} over the updates of ${describeNode(updateProducer(updating)!.node)} is not supported by Weir's SQL yet: its input must be insert-only`,
    node.kind === 'rank' ? node.pos : undefined,
  );
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
