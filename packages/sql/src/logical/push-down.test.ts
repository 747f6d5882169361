import { describe, expect, it } from 'vitest';
import { buildStreamGraph, DEFAULT_ENVIRONMENT, StreamExecutionEnvironment } from '@weir/api';
import { nexmarkEvent } from '@weir/connectors';
import { nexmarkRows } from '../connectors/nexmark.ts';
import { NEXMARK_QUERIES, NEXMARK_VIEWS, nexmarkDdl, nexmarkSelect } from '../nexmark/queries.ts';
import { StreamTableEnvironment } from '../table-environment.ts';
import { scanRows } from '../translate/scan-rows.ts';
import type { CatalogTable } from '../validate/catalog.ts';
import type { LogicalNode } from './nodes.ts';

function nexmarkEnv(env = new StreamExecutionEnvironment()): StreamTableEnvironment {
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.executeSql(nexmarkDdl({ 'events.num': '1000' }));
  for (const view of NEXMARK_VIEWS) tEnv.executeSql(view);
  return tEnv;
}

const DATAGEN = "CREATE TABLE g (id BIGINT, price INT, name STRING, twice AS id * 2) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '9')";

describe('projection and filter push-down, source reuse', () => {
  it('pushes a view\'s filter into the nexmark scan, and keeps it in the Calc too', () => {
    const plan = nexmarkEnv().sqlQuery(nexmarkSelect('q1')).explain();
    expect(plan).toContain('TableSourceScan(table=[[default_catalog, default_database, nexmark, filter=[=(event_type, 2)]]]');
    expect(plan).toMatch(/Calc\(select=\[.*\], where=\[=\(event_type, 2\)\]\)/);
  });

  it('scans a table once when a query reads two views of it, their filters ORed (reuse_id / Reused)', () => {
    const plan = nexmarkEnv().sqlQuery(nexmarkSelect('q3')).explain();
    const physical = plan.slice(plan.indexOf('== Optimized Physical Plan =='));
    expect(physical).toContain('nexmark, filter=[OR(=(event_type, 1), =(event_type, 0))]]], fields=[event_type, person, auction, bid, dateTime], watermark=[-(dateTime, 4000:INTERVAL SECOND)])(reuse_id=[1])');
    expect(physical).toContain('Reused(reference_id=[1])');
    expect(physical.match(/TableSourceScan/g)).toHaveLength(1);
  });

  it('makes one source operator for the reused scan in the job graph', async () => {
    const graph = await buildStreamGraph(
      (env) => {
        const tEnv = nexmarkEnv(env);
        for (const statement of NEXMARK_QUERIES.q3!) tEnv.executeSql(statement);
      },
      [],
      DEFAULT_ENVIRONMENT,
    );
    expect(graph.nodes.filter((n) => n.name.startsWith('TableSourceScan')).map((n) => n.name)).toEqual(['TableSourceScan[nexmark]']);
  });

  it('projects a datagen scan to the columns read and what the computed ones among them read', () => {
    const tEnv = StreamTableEnvironment.create(new StreamExecutionEnvironment());
    tEnv.executeSql(DATAGEN);
    expect(tEnv.sqlQuery('SELECT twice FROM g WHERE price > 3').explain()).toContain('TableSourceScan(table=[[default_catalog, default_database, g, project=[id, price, twice], filter=[>(price, 3)]]]');
    // Not under a Calc (an aggregate reads its input whole after the Calc below it is merged away): everything.
    expect(tEnv.sqlQuery('SELECT * FROM g').explain()).toContain('TableSourceScan(table=[[default_catalog, default_database, g]]');
  });

  it('makes rows with the columns not read NULL, and drops the rows the filter refuses before computing', () => {
    const table = { name: 't', physicalCount: 2, options: {}, kind: 'table' } as const;
    const columns = [
      { name: 'a', type: { root: 'INT', nullable: true }, physicalIndex: 0 },
      { name: 'b', type: { root: 'INT', nullable: true }, physicalIndex: 1 },
      { name: 'c', type: { root: 'INT', nullable: true }, computed: { kind: 'call', op: '*', operands: [{ kind: 'input', index: 0, type: { root: 'INT', nullable: true } }, { kind: 'literal', value: 10, type: { root: 'INT', nullable: false } }], type: { root: 'INT', nullable: true } } },
    ];
    const filter = { kind: 'call', op: '>', operands: [{ kind: 'input', index: 0, type: columns[0]!.type }, { kind: 'literal', value: 1, type: columns[0]!.type }], type: { root: 'BOOLEAN', nullable: true } };
    const { rowOf, pushdown } = scanRows({ ...table, columns } as unknown as CatalogTable, { columns: [0, 2], filter: filter as never });
    expect([rowOf([2, 5]), rowOf([1, 5]), rowOf(undefined)]).toEqual([[2, null, 20], undefined, undefined]);
    expect([...pushdown!.columns]).toEqual([0]);
    expect([...pushdown!.filter!.reads]).toEqual([0]);
  });

  it('does not make the Nexmark events a filter on event_type refuses', () => {
    const plain = nexmarkRows(nexmarkTable());
    const isBid = { reads: new Set([0]), test: (row: unknown[]) => row[0] === 2 };
    const bidsOnly = nexmarkRows(nexmarkTable(), { columns: new Set([0, 3]), filter: { ...isBid, conjuncts: [isBid] } });
    // Event 0 is a person: skipped (an empty row), not generated; a bid comes out with only its columns.
    expect(bidsOnly(0)).toEqual([]);
    const bidIndex = [...Array(60).keys()].find((i) => 'bid' in nexmarkEvent(i))!;
    const full = plain(bidIndex);
    expect(bidsOnly(bidIndex)).toEqual([full[0], null, null, full[3]]);
  });

  it("does not make the events an event_type term of an AND refuses (q2's filter), and leaves the other terms to the scan", () => {
    const query = nexmarkEnv().sqlQuery(nexmarkSelect('q2'));
    expect(query.explain()).toContain('filter=[AND(=(event_type, 2), =(%(bid.auction, 123), 0))]');
    const scan = (query.planned.optimized as { input: LogicalNode }).input;
    if (scan.kind !== 'scan') throw new Error(`q2's Calc reads a ${scan.kind}`);
    const table = scan.table;
    const { pushdown } = scanRows(table, scan.pushdown);
    expect(pushdown!.filter!.conjuncts.map((c) => [...c.reads])).toEqual([[0], [3]]);
    const made = nexmarkRows(table, pushdown);
    const person = [...Array(60).keys()].find((i) => 'person' in nexmarkEvent(i))!;
    const bid = [...Array(60).keys()].find((i) => 'bid' in nexmarkEvent(i))!;
    // A person is not made; a bid is, whatever its auction: the MOD term is the scan's to apply.
    expect(made(person)).toEqual([]);
    expect(made(bid)).toEqual(nexmarkRows(table, { columns: pushdown!.columns })(bid));
  });
});

function nexmarkTable(): CatalogTable {
  const tEnv = nexmarkEnv();
  const scan = tEnv.sqlQuery('SELECT event_type FROM nexmark').planned.logical;
  const find = (node: typeof scan): CatalogTable => (node.kind === 'scan' ? node.table : find((node as { input: typeof scan }).input));
  return find(scan);
}
