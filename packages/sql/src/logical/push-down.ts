import { scanProducesUpserts } from '../connectors/registry.ts';
import type { CatalogTable } from '../validate/catalog.ts';
import { rexKey } from '../validate/expressions.ts';
import { and, conjuncts } from './join-condition.ts';
import { nodeInputs, withInputs, type LogicalNode, type ScanPushdown } from './nodes.ts';
import { inputsOf, type Rex } from './rex.ts';

type Scan = Extract<LogicalNode, { kind: 'scan' }>;
type Calc = Extract<LogicalNode, { kind: 'calc' }>;

/**
 * Projection and filter push-down (Flink's PushProjectIntoTableSourceScanRule and
 * PushFilterIntoTableSourceScanRule) for a Calc right over a scan: the columns the Calc reads,
 * with what the computed columns among them and the WATERMARK read, become the scan's
 * `columns`; the Calc's conjuncts that read physical columns only become its `filter`. A scan
 * under anything else reads every column, and so does an upsert source (its ChangelogNormalize
 * needs each key's every row).
 */
export function pushIntoScan(calc: Calc): Calc {
  const scan = calc.input as Scan;
  const table = scan.table;
  // An upsert source's rows are normalized by key first: every column and every row must reach ChangelogNormalize.
  if (scanProducesUpserts(table)) return calc;
  const read = new Set<number>();
  for (const p of calc.projects) inputsOf(p, read);
  if (calc.condition !== undefined) inputsOf(calc.condition, read);
  const columns = withDependencies(table, read);
  const physical = calc.condition === undefined ? [] : conjuncts(calc.condition).filter((c) => [...inputsOf(c)].every((i) => table.columns[i]!.physicalIndex !== undefined));
  const filter = and(physical);
  if (columns.length === table.columns.length && filter === undefined) return calc;
  return { ...calc, input: { ...scan, pushdown: { columns, ...(filter !== undefined ? { filter } : {}) } } };
}

/** The columns read, plus the columns the computed ones among them and the WATERMARK read (by physical index), in table order. */
function withDependencies(table: CatalogTable, read: ReadonlySet<number>): number[] {
  const needed = new Set(read);
  if (table.watermark !== undefined) {
    needed.add(table.watermark.column);
    for (const i of inputsOf(table.watermark.expr)) needed.add(i);
  }
  for (const i of [...needed]) {
    const computed = table.columns[i]!.computed;
    if (computed === undefined) continue;
    // A computed column's expression reads physical columns by their physical index.
    for (const p of inputsOf(computed)) needed.add(table.columns.findIndex((c) => c.physicalIndex === p));
  }
  return [...needed].filter((i) => i >= 0).sort((a, b) => a - b);
}

/**
 * Source reuse (Flink's table.optimizer.reuse-source-enabled): scans of one table in a plan
 * become one scan, which the translation makes one source for every reader. Their push-downs
 * merge: the union of their columns, and the OR of their filters (none if one has none).
 */
export function reuseScans(plan: LogicalNode): LogicalNode {
  const scans = new Map<string, Scan[]>();
  collectScans(plan, scans);
  const merged = new Map<string, Scan>();
  for (const [name, list] of scans) if (list.length > 1) merged.set(name, mergeScans(list));
  if (merged.size === 0) return plan;
  const replace = (node: LogicalNode): LogicalNode => (node.kind === 'scan' ? (merged.get(node.table.name) ?? node) : withInputs(node, nodeInputs(node).map(replace)));
  return replace(plan);
}

function collectScans(node: LogicalNode, into: Map<string, Scan[]>): void {
  if (node.kind === 'scan') {
    const list = into.get(node.table.name) ?? [];
    into.set(node.table.name, [...list, node]);
  }
  for (const input of nodeInputs(node)) collectScans(input, into);
}

function mergeScans(scans: readonly Scan[]): Scan {
  const { pushdown: _first, ...base } = scans[0]!;
  if (scans.some((s) => s.pushdown === undefined)) return base;
  const pushdowns = scans.map((s) => s.pushdown!);
  const columns = [...new Set(pushdowns.flatMap((p) => p.columns))].sort((a, b) => a - b);
  const filters = pushdowns.map((p) => p.filter);
  const distinct = [...new Map(filters.filter((f) => f !== undefined).map((f) => [rexKey(f), f])).values()];
  const filter: Rex | undefined = filters.every((f) => f !== undefined) ? distinct.reduce((a, b) => ({ kind: 'call', op: 'OR', operands: [a, b], type: a.type })) : undefined;
  const pushdown: ScanPushdown = { columns, ...(filter !== undefined ? { filter } : {}) };
  return { ...base, pushdown };
}
