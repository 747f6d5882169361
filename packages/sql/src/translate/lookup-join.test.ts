import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StreamExecutionEnvironment, type Collector, type ProcessContext } from '@weir/api';
import type { CreateTable } from '../parse/ast.ts';
import { parseStatement } from '../parse/parser.ts';
import type { Row } from '../row.ts';
import { StreamTableEnvironment } from '../table-environment.ts';
import { tableFromDdl } from '../validate/ddl.ts';
import { keyString } from './keys.ts';
import { LookupJoinFunction } from './lookup-join.ts';

/** A directory holding `files` (name -> lines), as a filesystem table's 'path'. */
function tableDir(files: Record<string, string[]>): string {
  const dir = mkdtempSync(join(tmpdir(), 'weir-lookup-'));
  for (const [name, lines] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), `${lines.join('\n')}\n`);
  }
  return dir;
}

const sideTable = (path: string, extra = '') =>
  tableFromDdl(parseStatement(`CREATE TABLE side (k BIGINT, v STRING) WITH ('connector' = 'filesystem', 'path' = '${path}', 'format' = 'csv'${extra})`) as CreateTable);

/** `rows` through `fn` at processing time `now` (the task's processing-time service). */
function run(fn: LookupJoinFunction, rows: Row[], now = 0): string[] {
  const out: string[] = [];
  const collector = { collect: (r: Row) => void out.push(`${r.kind}${keyString(r.fields)}`) } as Collector<Row>;
  const ctx = { timerService: () => ({ currentProcessingTime: () => now }) } as unknown as ProcessContext;
  for (const r of rows) fn.processElement(r, ctx, collector);
  return out;
}

describe('LookupJoinFunction', () => {
  it('reads the table on its first row and joins each row by a key expression of it; LEFT pads with NULLs; kinds pass through', () => {
    const dir = tableDir({ 'a.csv': ['1,one', '2,two', '2,deux'], 'sub/b.csv': ['3,three'], '.hidden': ['1,hidden'], '_SUCCESS': ['1,marker'] });
    const mod10 = (fields: readonly unknown[]) => (fields[0] as number) % 10;
    const inner = new LookupJoinFunction(sideTable(dir), false, [mod10], [0], undefined);
    expect(run(inner, [{ kind: '+I', fields: [11, 'x'] }, { kind: '+I', fields: [12, 'y'] }, { kind: '-D', fields: [13, 'z'] }, { kind: '+I', fields: [14, 'w'] }])).toEqual([
      '+I[11,"x",1,"one"]',
      '+I[12,"y",2,"two"]',
      '+I[12,"y",2,"deux"]',
      '-D[13,"z",3,"three"]',
    ]);
    const left = new LookupJoinFunction(sideTable(dir), true, [mod10], [0], (j) => j[3] !== 'two');
    expect(run(left, [{ kind: '+I', fields: [12, 'y'] }, { kind: '+I', fields: [14, 'w'] }, { kind: '+I', fields: [null, 'n'] }])).toEqual(['+I[12,"y",2,"deux"]', '+I[14,"w",null,null]', '+I[null,"n",null,null]']);
  });

  it("reads the table again once 'lookup.join.cache.ttl' has passed, not before", () => {
    const dir = tableDir({ 'a.csv': ['1,one'] });
    const fn = new LookupJoinFunction(sideTable(dir, ", 'lookup.join.cache.ttl' = '10 s'"), false, [(f) => f[0]], [0], undefined);
    expect(run(fn, [{ kind: '+I', fields: [1] }], 1_000_000)).toEqual(['+I[1,1,"one"]']);
    writeFileSync(join(dir, 'a.csv'), '1,uno\n');
    expect(run(fn, [{ kind: '+I', fields: [1] }], 1_009_999)).toEqual(['+I[1,1,"one"]']);
    expect(run(fn, [{ kind: '+I', fields: [1] }], 1_010_000)).toEqual(['+I[1,1,"uno"]']);
  });
});

describe('lookup join planning', () => {
  function env(): StreamTableEnvironment {
    const tEnv = StreamTableEnvironment.create(new StreamExecutionEnvironment());
    tEnv.executeSql("CREATE TABLE b (auction BIGINT, price BIGINT, ts TIMESTAMP(3), p AS PROCTIME(), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen')");
    tEnv.executeSql("CREATE TABLE side (k BIGINT, v STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/weir-lookup-side', 'format' = 'csv')");
    tEnv.executeSql("CREATE TABLE other (k BIGINT, v STRING) WITH ('connector' = 'datagen')");
    return tEnv;
  }

  it("EXPLAINs Flink's LookupJoin with the key expression, an INNER or LEFT join type and the residual", () => {
    const plan = env().sqlQuery('SELECT b.auction, s.v FROM b JOIN side FOR SYSTEM_TIME AS OF b.p AS s ON MOD(b.auction, 10) = s.k').explain();
    expect(plan).toMatch(/LookupJoin\(table=\[default_catalog\.default_database\.side\], joinType=\[InnerJoin\], lookup=\[k=%\(auction, 10\)\], select=\[auction, price, ts, p, k, v\]\).*changelogMode=\[I\]/);
    const left = env().sqlQuery("SELECT b.auction, s.v FROM b LEFT JOIN side FOR SYSTEM_TIME AS OF b.p AS s ON s.k = b.auction AND s.v <> 'x'").explain();
    expect(left).toMatch(/LookupJoin\(table=\[default_catalog\.default_database\.side\], joinType=\[LeftOuterJoin\], lookup=\[k=auction\], where=\[<>\(v, _UTF-16LE'x'\)\]/);
    const tEnv = env();
    tEnv.executeSql('CREATE TABLE out_t (a BIGINT, v STRING) WITH (\'connector\' = \'blackhole\')');
    tEnv.executeSql('INSERT INTO out_t SELECT b.auction, s.v FROM b LEFT JOIN side FOR SYSTEM_TIME AS OF b.p AS s ON s.k = b.auction');
    tEnv.executeSql("CREATE TABLE side2 (k BIGINT, v STRING) WITH ('connector' = 'filesystem', 'path' = '/tmp/x', 'lookup.cache.ttl' = '1 min')");
    expect(() => tEnv.executeSql('INSERT INTO out_t SELECT b.auction, s.v FROM b JOIN side2 FOR SYSTEM_TIME AS OF b.p AS s ON s.k = b.auction')).toThrow(/has no option 'lookup.cache.ttl'.*lookup.join.cache.ttl/);
  });

  it('refuses what is not a processing-time equality lookup against a filesystem table (SQL_UNSUPPORTED)', () => {
    const refused = (sql: string, why: RegExp) => expect(() => env().sqlQuery(sql).explain(), sql).toThrow(expect.objectContaining({ code: 'SQL_UNSUPPORTED', message: expect.stringMatching(why) }));
    refused('SELECT * FROM b JOIN other FOR SYSTEM_TIME AS OF b.p AS s ON b.auction = s.k', /Table 'other' cannot be looked up.*'filesystem' table only/);
    refused('SELECT * FROM b JOIN side FOR SYSTEM_TIME AS OF b.ts AS s ON b.auction = s.k', /an event-time attribute \(an event-time temporal join\) is not supported/);
    refused('SELECT * FROM b JOIN side FOR SYSTEM_TIME AS OF b.p AS s ON b.auction > s.k', /a lookup join needs an equality/);
    refused('SELECT * FROM b RIGHT JOIN side FOR SYSTEM_TIME AS OF b.p AS s ON b.auction = s.k', /a RIGHT lookup join/);
    const tEnv = env();
    tEnv.executeSql("CREATE TABLE parted (k BIGINT, v STRING) PARTITIONED BY (v) WITH ('connector' = 'filesystem', 'path' = '/tmp/p', 'format' = 'csv')");
    expect(() => tEnv.sqlQuery('SELECT * FROM b JOIN parted FOR SYSTEM_TIME AS OF b.p AS s ON b.auction = s.k').explain()).toThrow(/a lookup join against a partitioned filesystem table/);
    refused("SELECT * FROM side FOR SYSTEM_TIME AS OF TIMESTAMP '2024-01-01 00:00:00'", /only on the right side of a JOIN/);
  });
});
