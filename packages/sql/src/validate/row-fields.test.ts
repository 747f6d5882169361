import { describe, expect, it } from 'vitest';
import type { CreateTable, Select } from '../parse/ast.ts';
import { parseStatement } from '../parse/parser.ts';
import { compile } from '../translate/compile.ts';
import { formatValue } from '../translate/values.ts';
import { Catalog } from './catalog.ts';
import { tableFromDdl } from './ddl.ts';
import { bindQuery } from './query.ts';
import { typeToString } from './types.ts';

const ORDERS = "CREATE TABLE o (id BIGINT, r ROW<a BIGINT, s ROW<b STRING, c INT>>) WITH ('connector' = 'datagen')";

function bind(sql: string) {
  const catalog = new Catalog();
  catalog.add(tableFromDdl(parseStatement(ORDERS) as CreateTable), undefined);
  return bindQuery(parseStatement(sql) as Select, catalog);
}

type Plan = ReturnType<typeof bind>;

/** A plan of Calcs over the scan, run over one input row: its output row, or undefined when a filter drops it. */
function evaluate(plan: Plan, row: unknown[]): unknown[] | undefined {
  if (plan.kind === 'scan') return row;
  if (plan.kind !== 'calc') throw new Error(plan.kind);
  const input = evaluate(plan.input, row);
  if (input === undefined || (plan.condition !== undefined && compile(plan.condition)(input) !== true)) return undefined;
  return plan.projects.map((p) => compile(p)(input));
}

/** The query's rows over the input rows, each value as Flink prints it, and its columns' names and types. */
function run(sql: string, rows: unknown[][]): { columns: string[]; rows: string[][] } {
  const plan = bind(sql);
  const out = rows.map((r) => evaluate(plan, r)).filter((r) => r !== undefined);
  return {
    columns: plan.fields.map((f) => `${f.name} ${typeToString(f.type)}`),
    rows: out.map((r) => r.map((v, i) => (v === null ? 'null' : formatValue(v, plan.fields[i]!.type)))),
  };
}

describe('field access on ROW columns (r.f, t.r.f, r.s.f)', () => {
  const rows = [
    [1, [10, ['x', 3]]],
    [2, [20, ['y', 1]]],
    [3, [30, null]],
    [4, null],
  ];

  it('reads fields, nested fields and qualified ones in projections and filters, NULL through a NULL row', () => {
    expect(run('SELECT id, r.a, o.r.s.b, r.s.c + 1 AS c1 FROM o WHERE r.s.c > 1 OR r.s IS NULL', rows)).toEqual({
      columns: ['id BIGINT', 'a BIGINT', 'b STRING', 'c1 INT'],
      rows: [
        ['1', '10', 'x', '4'],
        ['3', '30', 'null', 'null'],
        ['4', 'null', 'null', 'null'],
      ],
    });
    expect(run('SELECT x.r.a * 2 FROM o AS x WHERE x.r.s.b = \'y\'', rows).rows).toEqual([['40']]);
  });

  it('names the ROW and suggests a field when one is not there', () => {
    expect(() => bind('SELECT r.aa FROM o')).toThrow("ROW column 'r' has no field 'aa'; did you mean 'a'?");
    expect(() => bind('SELECT o.r.s.bb FROM o')).toThrow("SQL error at line 1, column 8: ROW column 'o.r.s' has no field 'bb'; did you mean 'b'?");
    expect(() => bind('SELECT id FROM o WHERE r.a.x = 1')).toThrow("SQL error at line 1, column 24: 'r.a' is not a ROW, so it has no field 'x'");
  });
});
