import { type StateTtlConfig, WatermarkStrategy, Watermark, type DataStream, type StreamExecutionEnvironment, type WatermarkGenerator, type WindowAssigner, type TimeWindow } from '@weir/api';
import type { TableFactory } from '../connectors/factory.ts';
import type { LogicalNode } from '../logical/nodes.ts';
import type { PhysicalNode } from '../physical/changelog.ts';
import type { Row } from '../row.ts';
import type { CatalogTable } from '../validate/catalog.ts';
import { reuseDigest, subtreeSize } from '../physical/reuse.ts';
import { scanRows } from './scan-rows.ts';
import { accumulatorOf } from './aggregates.ts';
import { ChangelogNormalizeFunction } from './changelog-normalize.ts';
import { compile } from './compile.ts';
import { GroupAggregateFunction } from './group-aggregate.ts';
import { IntervalJoinFunction } from './interval-join.ts';
import { WindowJoinFunction } from './window-join.ts';
import { appendOnlySides, StreamingJoinFunction } from './join.ts';
import { LookupJoinFunction } from './lookup-join.ts';
import { fieldsKey } from './keys.ts';
import { OverAggregateFunction } from './over-aggregate.ts';
import { AppendRankFunction } from './rank.ts';
import { RetractGroupAggregateFunction } from './retract-aggregate.ts';
import { WindowRankFunction } from './window-rank.ts';
import { WindowRowFunction, windowAggregateFunction, windowAssignerOf } from './window-aggregate.ts';
import { WindowTableFunction } from './window-table-function.ts';

/** A keyBy's key selector: the keyString of the row's fields at `indexes`. */
function fieldsKeyOfRow(indexes: readonly number[]): (row: Row) => string {
  const key = fieldsKey(indexes);
  return (row) => key(row.fields);
}

/** The uid of an operator of the plan: the statement's own prefix, then the operator's place in the plan. */
export type UidOf = (operator: string) => string;


/**
 * A physical plan as DataStream operators on `env`: a source per scan, a flatMap per Calc,
 * keyBy + keyed process function per GroupAggregate, keyBy + event-time window per
 * WindowAggregate. Operators get uids from `uid` and their place in the plan (pre-order), so
 * the same statement gets the same uids and a savepoint of it restores.
 */
/** What the table configuration says about translation: table.exec.state.ttl for regular joins and unbounded aggregates. */
export interface TranslateOptions {
  readonly stateTtl?: StateTtlConfig;
}

export function translatePlan(plan: PhysicalNode, env: StreamExecutionEnvironment, uid: UidOf, sourceOf: (table: CatalogTable) => TableFactory, options: TranslateOptions = {}): DataStream<Row> {
  let counter = 0;
  // Sub-plan reuse: a subtree computed before (one source per table, as reuseScans merged
  // their push-downs; q5's two equal HOP counts) is that subtree's stream, read once more.
  const built = new Map<string, DataStream<Row>>();
  // `siblings`: the streams an operator already reads; a union or join of two equal subtrees
  // gets the second made again, as the DataStream API takes a stream once per operator.
  const visit = (physical: PhysicalNode, siblings: ReadonlySet<DataStream<Row>> = new Set()): DataStream<Row> => {
    const node = physical.node;
    const digest = reuseDigest(node);
    const reused = digest === undefined ? undefined : built.get(digest);
    if (reused !== undefined && !siblings.has(reused)) {
      // Its nodes keep their numbers, so every other operator's uid is what it was without reuse.
      counter += subtreeSize(node);
      return reused;
    }
    const id = counter++;
    const name = `${node.kind}-${id}`;
    const inputs: DataStream<Row>[] = [];
    for (const input of physical.inputs) inputs.push(visit(input, new Set(inputs)));
    const stream = translateNode(physical, inputs, id, name);
    if (digest !== undefined && !built.has(digest)) built.set(digest, stream);
    return stream;
  };
  const translateNode = (physical: PhysicalNode, inputs: readonly DataStream<Row>[], id: number, name: string): DataStream<Row> => {
    const node = physical.node;
    switch (node.kind) {
      case 'scan':
        return scan(node, env, (op) => uid(`${name}-${op}`), sourceOf(node.table));
      case 'calc': {
        const projects = node.projects.map(compile);
        const width = projects.length;
        const condition = node.condition === undefined ? undefined : compile(node.condition);
        return inputs[0]!
          .flatMap<Row>((row, out) => {
            const input = row.fields;
            if (condition !== undefined && condition(input) !== true) return;
            const fields = new Array<unknown>(width);
            for (let i = 0; i < width; i++) fields[i] = projects[i]!(input);
            out.collect({ kind: row.kind, fields });
          })
          .name(`Calc[${id}]`)
          .uid(uid(name));
      }
      case 'windowTvf':
        return inputs[0]!
          .process(new WindowTableFunction(windowAssignerOf(node.window), node.timeIndex))
          .name(`WindowTableFunction[${id}]`)
          .uid(uid(name));
      case 'aggregate': {
        const keys = node.groupKeys;
        if (physical.inputs[0]!.mode === 'retract') {
          return inputs[0]!
            .keyBy(fieldsKeyOfRow(keys))
            .process(new RetractGroupAggregateFunction(keys, node.aggs, node.aggs.map((a) => (a.arg === undefined ? undefined : node.input.fields[a.arg]!.type)), options.stateTtl))
            .name(`GroupAggregate[${id}]`)
            .uid(uid(name));
        }
        const accumulators = node.aggs.map((a) => accumulatorOf(a, a.arg === undefined ? undefined : node.input.fields[a.arg]!.type));
        return inputs[0]!
          .keyBy(fieldsKeyOfRow(keys))
          .process(new GroupAggregateFunction(keys, node.aggs.map((a) => a.arg), accumulators, options.stateTtl, node.aggs.map((a) => a.distinct)))
          .name(`GroupAggregate[${id}]`)
          .uid(uid(name));
      }
      case 'union':
        return inputs[0]!.union(...inputs.slice(1));
      case 'join': {
        const leftKeys = node.leftKeys;
        const rightKeys = node.rightKeys;
        const residual = node.residual === undefined ? undefined : compile(node.residual);
        const keys = [leftKeys, rightKeys] as const;
        const widths = [node.left.fields.length, node.right.fields.length] as const;
        const insertOnly = [physical.inputs[0]!.mode === 'insert-only', physical.inputs[1]!.mode === 'insert-only'] as const;
        const fn =
          node.interval !== undefined
            ? new IntervalJoinFunction(node.interval, keys, residual, node.joinType, widths)
            : node.window !== undefined
              ? new WindowJoinFunction(node.joinType, keys, widths, [node.window.left.end, node.window.right.end], residual)
              : new StreamingJoinFunction(node.joinType, keys, widths[0], widths[1], residual, options.stateTtl, insertOnly);
        return inputs[0]!
          .connect(inputs[1]!)
          .keyBy(
            fieldsKeyOfRow(leftKeys),
            fieldsKeyOfRow(rightKeys),
          )
          .process(fn)
          .name(`${node.interval !== undefined ? 'IntervalJoin' : node.window !== undefined ? 'WindowJoin' : 'Join'}[${id}]`)
          .uid(uid(fn instanceof StreamingJoinFunction && appendOnlySides(node.joinType, insertOnly, options.stateTtl).some(Boolean) ? `${name}-append` : name));
      }
      case 'lookupJoin': {
        // As a scan's: the table's options are checked (an unknown one refused with the nearest name).
        sourceOf(node.table);
        const residual = node.residual === undefined ? undefined : compile(node.residual);
        return inputs[0]!
          .process(new LookupJoinFunction(node.table, node.joinType === 'LEFT', node.leftKeys.map(compile), node.rightKeys, residual))
          .name(`LookupJoin[${id}]`)
          .uid(uid(name));
      }
      case 'rank': {
        const partition = node.partitionKeys;
        return inputs[0]!
          .keyBy(fieldsKeyOfRow(partition))
          .process(node.window !== undefined ? new WindowRankFunction(node.orderKeys, node.limit!, node.window.end) : new AppendRankFunction(node.orderKeys, node.limit!, node.withoutRowNumber !== true))
          .name(`${node.window !== undefined ? 'WindowRank' : 'Rank'}[${id}]`)
          .uid(uid(name));
      }
      case 'overAggregate': {
        const partition = node.partitionKeys;
        const accumulators = node.aggs.map((a) => accumulatorOf(a, a.arg === undefined ? undefined : node.input.fields[a.arg]!.type));
        return inputs[0]!
          .keyBy(fieldsKeyOfRow(partition))
          .process(new OverAggregateFunction(node.timeIndex, node.rows, node.preceding, node.aggs.map((a) => a.arg), accumulators))
          .name(`OverAggregate[${id}]`)
          .uid(uid(name));
      }
      case 'windowAggregate': {
        const keyIndexes = node.keys.flatMap((k) => (k.kind === 'field' ? [k.index] : []));
        const accumulators = node.aggs.map((a) => accumulatorOf(a, a.arg === undefined ? undefined : node.input.fields[a.arg]!.type));
        return inputs[0]!
          .keyBy(fieldsKeyOfRow(keyIndexes))
          .window(windowAssignerOf(node.window) as WindowAssigner<Row, TimeWindow>)
          .aggregate(windowAggregateFunction(keyIndexes, node.aggs.map((a) => a.arg), accumulators), new WindowRowFunction(node.keys))
          .name(`WindowAggregate[${id}]`)
          .uid(uid(name));
      }
    }
  };
  return visit(plan);
}


/**
 * A table's rows: the connector's records (physical values, then metadata values), computed
 * columns added, timestamps and watermarks from the WATERMARK clause; `+I` rows, or for an
 * upsert source its +U/-D rows made a retract changelog by primary key (ChangelogNormalize).
 * With a push-down (logical/push-down.ts) only the columns read are made, and a row the pushed
 * filter refuses is dropped here, before its computed columns, if the source did not drop it.
 */
function scan(node: Extract<LogicalNode, { kind: 'scan' }>, env: StreamExecutionEnvironment, uid: UidOf, factory: TableFactory): DataStream<Row> {
  const table = node.table;
  const { rowOf, pushdown } = scanRows(table, node.pushdown);
  const { source, toRow, kindOf } = factory.createSource!(table, pushdown);
  // The row of the record the timestamp assigner saw last: the assigner, the map and the
  // watermark generator see each record in that order (the source output), so it is made once.
  let lastRecord: unknown;
  let lastRow: unknown[] | undefined;
  const fresh = (record: unknown): unknown[] | undefined => {
    lastRecord = record;
    return (lastRow = rowOf(toRow(record)));
  };
  const seen = (record: unknown): unknown[] | undefined => (record === lastRecord ? lastRow : fresh(record));
  let strategy: WatermarkStrategy<unknown> = WatermarkStrategy.noWatermarks();
  const watermark = table.watermark;
  let rowForMap = fresh;
  if (watermark !== undefined) {
    rowForMap = seen;
    const expr = compile(watermark.expr);
    const column = watermark.column;
    // Flink's SQL watermark: the largest value of the WATERMARK expression seen so far, emitted periodically.
    strategy = WatermarkStrategy.forGenerator<unknown>((): WatermarkGenerator<unknown> => {
      let max = Number.NEGATIVE_INFINITY;
      return {
        onEvent(event) {
          const row = seen(event);
          if (row === undefined) return;
          const value = expr(row);
          if (typeof value === 'number' && value > max) max = value;
        },
        onPeriodicEmit(output) {
          if (max > Number.NEGATIVE_INFINITY) output.emitWatermark(new Watermark(max));
        },
      };
      // A row the pushed filter drops gets no time of its own: it goes no further than the next operator.
    }).withTimestampAssigner((event) => (fresh(event)?.[column] as number | undefined) ?? 0);
  }
  const rows = env
    .fromSource(source, strategy, `TableSourceScan[${table.name}]`)
    .uid(uid('source'))
    .flatMap<Row>((record, out) => {
      const fields = rowForMap(record);
      if (fields !== undefined) out.collect({ kind: kindOf === undefined ? '+I' : kindOf(record), fields });
    })
    .name(`Scan[${table.name}]`)
    .uid(uid('row'));
  if (kindOf === undefined) return rows;
  const keys = (table.primaryKey ?? []).map((name) => table.columns.findIndex((c) => c.name === name));
  return rows
    .keyBy(fieldsKeyOfRow(keys))
    .process(new ChangelogNormalizeFunction())
    .name(`ChangelogNormalize[${table.name}]`)
    .uid(uid('normalize'));
}
