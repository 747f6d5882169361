import { createHash } from 'node:crypto';
import type { DataStream, StreamExecutionEnvironment } from '@weir/api';
import { factoryOf } from './connectors/registry.ts';
import { SqlError, SqlErrorCode } from './errors.ts';
import { nodeInputs, type LogicalNode } from './logical/nodes.ts';
import type { Field } from './logical/rex.ts';
import { reuseScans } from './logical/push-down.ts';
import { optimize } from './logical/rewrites.ts';
import type { Query } from './parse/ast.ts';
import { checkSinkAccepts, modeToString, toPhysical, type PhysicalNode } from './physical/changelog.ts';
import { describeNode } from './physical/describe.ts';
import { reuseDigest, reusedSubplans } from './physical/reuse.ts';
import type { Row } from './row.ts';
import { coerce } from './translate/compile.ts';
import { translatePlan, type TranslateOptions } from './translate/translator.ts';
import { sinkColumns, type Catalog, type CatalogTable } from './validate/catalog.ts';
import { bindQuery } from './validate/query.ts';
import { typeToString, withoutRowtime } from './validate/types.ts';

/** A query planned through every layer but translation: what EXPLAIN prints and translation takes. */
export interface PlannedQuery {
  readonly logical: LogicalNode;
  readonly optimized: LogicalNode;
  readonly physical: PhysicalNode;
  readonly fields: readonly Field[];
}

export function planQuery(query: Query, catalog: Catalog): PlannedQuery {
  const logical = bindQuery(query, catalog);
  // Source reuse last: it merges what each scan's readers pushed into it.
  const optimized = reuseScans(optimize(logical));
  const physical = toPhysical(optimized);
  // Every source's connector and options are checked now, before anything is submitted.
  forEachScan(optimized, (table) => factoryOf(table, 'source'));
  return { logical, optimized, physical, fields: optimized.fields };
}

function forEachScan(node: LogicalNode, fn: (table: CatalogTable) => void): void {
  if (node.kind === 'scan') fn(node.table);
  for (const input of nodeInputs(node)) forEachScan(input, fn);
}

/** INSERT INTO: the query's columns must match the sink's in number and type family; the sink must take the query's changelog. */
export function checkInsert(planned: PlannedQuery, sink: CatalogTable, pos: { line: number; column: number }): void {
  const factory = factoryOf(sink, 'sink');
  const targets = sinkColumns(sink);
  if (targets.length !== planned.fields.length) {
    throw new SqlError(
      SqlErrorCode.SQL_TYPE_MISMATCH,
      `Column types of query result and sink for '${sink.name}' do not match: the query has ${planned.fields.length} columns (${planned.fields.map((f) => f.name).join(', ')}), the sink ${targets.length} (${targets.map((c) => c.name).join(', ')})`,
      pos,
    );
  }
  planned.fields.forEach((f, i) => {
    const target = targets[i]!;
    const from = withoutRowtime(f.type);
    const to = withoutRowtime(target.type);
    const same = from.root === to.root && (from.root !== 'DECIMAL' || (from.precision === to.precision && from.scale === to.scale));
    const widening = from.root === 'NULL' || (from.root === 'INT' && to.root === 'BIGINT') || (['INT', 'BIGINT', 'DECIMAL'].includes(from.root) && to.root === 'DECIMAL') || (['INT', 'BIGINT', 'DECIMAL'].includes(from.root) && to.root === 'DOUBLE');
    if (!same && !widening) {
      throw new SqlError(
        SqlErrorCode.SQL_TYPE_MISMATCH,
        `Column types of query result and sink for '${sink.name}' do not match: column ${i + 1} '${f.name}' is ${typeToString(from)}, the sink's '${target.name}' is ${typeToString(to)}; CAST it, as in CAST(${f.name} AS ${typeToString({ ...to, nullable: true })})`,
        pos,
      );
    }
  });
  checkSinkAccepts(planned.physical, sink.name, factory.accepts ?? 'insert-only', sink.options.connector!);
}

/** EXPLAIN's text: the logical plan as bound, then the optimized physical plan with each operator's changelog mode. */
export function explainText(planned: PlannedQuery, sink?: CatalogTable): string {
  const lines = ['== Abstract Syntax Tree =='];
  const logical = (node: LogicalNode, depth: number): void => {
    lines.push(`${'   '.repeat(depth)}Logical${describeNode(node)}`);
    for (const input of nodeInputs(node)) logical(input, depth + 1);
  };
  let depth = 0;
  if (sink !== undefined) {
    lines.push(`LogicalSink(table=[default_catalog.default_database.${sink.name}], fields=[${planned.fields.map((f) => f.name).join(', ')}])`);
    depth = 1;
  }
  logical(planned.logical, depth);
  lines.push('', '== Optimized Physical Plan ==');
  // A subtree read more than once is made once (a table's scans, by reuseScans; equal subtrees above them): Flink's reuse_id / Reused(reference_id).
  const reuse = reusedSubplans(planned.physical);
  const shown = new Set<string>();
  const physical = (node: PhysicalNode, d: number): void => {
    const indent = '   '.repeat(d);
    const digest = reuseDigest(node.node);
    const id = digest === undefined ? undefined : reuse.get(digest);
    if (id !== undefined && shown.has(digest!)) {
      lines.push(`${indent}Reused(reference_id=[${id}])`);
      return;
    }
    if (id !== undefined) shown.add(digest!);
    lines.push(`${indent}${describeNode(node.node)}${id === undefined ? '' : `(reuse_id=[${id}])`}, changelogMode=[${modeToString(node.mode)}]`);
    for (const input of node.inputs) physical(input, d + 1);
  };
  if (sink !== undefined) lines.push(`Sink(table=[default_catalog.default_database.${sink.name}], fields=[${planned.fields.map((f) => f.name).join(', ')}]), changelogMode=[NONE]`);
  physical(planned.physical, sink === undefined ? 0 : 1);
  return `${lines.join('\n')}\n`;
}

/** A uid prefix from the statement's text (whitespace and case of keywords aside, the same text gives the same uids). */
export function statementUid(text: string, occurrence: number): (operator: string) => string {
  const digest = createHash('sha256').update(text.replace(/\s+/g, ' ').trim()).digest('hex').slice(0, 12);
  return (operator) => `sql-${digest}${occurrence > 0 ? `-${occurrence}` : ''}-${operator}`;
}

/** The planned query as operators on `env`. */
export function translateQuery(planned: PlannedQuery, env: StreamExecutionEnvironment, uid: (operator: string) => string, options: TranslateOptions = {}): DataStream<Row> {
  return translatePlan(planned.physical, env, uid, (table) => factoryOf(table, 'source'), options);
}

/** INSERT INTO: the query's operators and the sink's on `env`. */
export function translateInsert(planned: PlannedQuery, sink: CatalogTable, env: StreamExecutionEnvironment, uid: (operator: string) => string, options: TranslateOptions = {}): void {
  const targets = sinkColumns(sink);
  let rows = translateQuery(planned, env, uid, options);
  const widened = planned.fields.map((f, i) => (f.type.root === targets[i]!.type.root && f.type.scale === targets[i]!.type.scale ? undefined : i)).filter((i) => i !== undefined);
  if (widened.length > 0) {
    const from = planned.fields.map((f) => f.type);
    const to = targets.map((c) => c.type);
    rows = rows.map((row): Row => ({ kind: row.kind, fields: row.fields.map((v, i) => coerce(v, from[i]!, to[i]!)) })).uid(uid('sink-cast'));
  }
  factoryOf(sink, 'sink').attachSink!(sink, targets, rows, (op) => uid(`sink-${op}`));
}
