import { describe, expect, it } from 'vitest';
import { StreamExecutionEnvironment } from '@weir/api';
import { nexmarkEvent } from '@weir/connectors';
import { nexmarkFactory, nexmarkRows } from '../connectors/nexmark.ts';
import type { CreateTable } from '../parse/ast.ts';
import { parseStatement } from '../parse/parser.ts';
import { tableFromDdl } from '../validate/ddl.ts';
import { StreamTableEnvironment } from '../table-environment.ts';
import { NEXMARK_QUERIES, NEXMARK_VIEWS, nexmarkDdl, nexmarkSelect, nexmarkWith } from './queries.ts';

const tableOf = (ddl: string) => tableFromDdl(parseStatement(ddl) as CreateTable);

function nexmarkEnv(options: Record<string, string> = { 'events.num': '1000' }): StreamTableEnvironment {
  const tEnv = StreamTableEnvironment.create(new StreamExecutionEnvironment());
  tEnv.executeSql(nexmarkDdl(options));
  for (const view of NEXMARK_VIEWS) tEnv.executeSql(view);
  return tEnv;
}

/** The queries Weir's SQL plans, and why the others are refused (each with its stable code). */
const SUPPORTED = ['q0', 'q1', 'q2', 'q3', 'q4', 'q5', 'q7', 'q8', 'q9', 'q11', 'q12', 'q14', 'q15', 'q16', 'q17', 'q18', 'q19', 'q20', 'q21', 'q22'];
const REFUSED: Record<string, RegExp> = {
  q10: /Table 'nexmark_q10': the filesystem connector's option 'sink.partition-commit.trigger' is not supported/,
  q13: /line 9, column 6: Table 'side_input' is declared with Flink's legacy 'connector.type' options/,
};

describe('Nexmark on Weir SQL', () => {
  it("declares Flink's Nexmark table: ROW columns, dateTime computed from them, its watermark", () => {
    const rows = nexmarkEnv().executeSql('DESCRIBE nexmark').rows;
    expect(rows.map((r) => r[0])).toEqual(['event_type', 'person', 'auction', 'bid', 'dateTime']);
    expect(rows[3]![1]).toBe('ROW<`auction` BIGINT, `bidder` BIGINT, `price` BIGINT, `channel` STRING, `url` STRING, `dateTime` TIMESTAMP(3), `extra` STRING>');
    expect(rows[4]!.slice(1)).toEqual(['TIMESTAMP(3) *ROWTIME*', 'TRUE', '', 'AS CASE(=(event_type, 0), person.dateTime, =(event_type, 1), auction.dateTime, bid.dateTime)', '-(dateTime, 4000:INTERVAL SECOND)']);
    expect(nexmarkEnv().executeSql('DESCRIBE bid').rows.map((r) => r.join(' '))).toEqual([
      'auction BIGINT',
      'bidder BIGINT',
      'price BIGINT',
      'channel STRING',
      'url STRING',
      'dateTime TIMESTAMP(3) *ROWTIME*',
      'extra STRING',
    ]);
  });

  it('plans the queries it supports as the Nexmark repository writes them, with their changelog modes', () => {
    for (const query of SUPPORTED) {
      const tEnv = nexmarkEnv();
      for (const statement of NEXMARK_QUERIES[query]!) tEnv.executeSql(statement);
    }
    const tEnv = nexmarkEnv();
    const plan = (q: string): string => tEnv.sqlQuery(nexmarkSelect(q)).explain();
    // A field of a ROW column reads as Flink's `person.id`; the views filter on event_type.
    expect(plan('q3')).toContain('Calc(select=[auction.id AS id, auction.itemName AS itemName, auction.description AS description,');
    expect(plan('q3')).toContain("person.extra AS extra], where=[=(event_type, 0)]), changelogMode=[I]");
    expect(plan('q5')).toMatch(/WindowAggregate\(groupBy=\[auction\], window=\[HOP/);
    expect(plan('q19')).toMatch(/Rank\(.*rankEnd=10\].*changelogMode=\[I,UB,UA,D\]/);
    expect(plan('q20')).toMatch(/Join.*changelogMode=\[I\]/);
    for (const view of NEXMARK_QUERIES.q12!.slice(0, -1)) tEnv.executeSql(view);
    expect(tEnv.executeSql('DESCRIBE B').rows.at(-1)!.slice(0, 2)).toEqual(['p_time', 'TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*']);
    expect(plan('q12')).toMatch(/WindowAggregate\(groupBy=\[bidder\], window=\[TUMBLE\(time_col=\[proctime\], size=\[10 s\]\)\].*changelogMode=\[I\]/);
  });

  it('refuses the others before anything runs, saying why', () => {
    for (const [query, why] of Object.entries(REFUSED)) {
      const tEnv = nexmarkEnv();
      expect(() => {
        for (const statement of NEXMARK_QUERIES[query]!) tEnv.executeSql(statement);
      }, query).toThrow(why);
    }
  });

  it('plans q10 into a partitioned filesystem sink with its WITH adapted, and refuses what a partitioned table does not take', () => {
    const tEnv = nexmarkEnv();
    const [ddl, insert] = NEXMARK_QUERIES.q10!;
    tEnv.executeSql(nexmarkWith(ddl!, { connector: 'filesystem', path: '/tmp/q10', format: 'csv', 'partition.default-name': 'none' }));
    expect(tEnv.executeSql(`EXPLAIN ${insert!}`).toString()).toMatch(/Sink\(table=\[.*nexmark_q10\]/);
    tEnv.executeSql(insert!);
    const refused = (ddl: string, sql: string) => () => {
      const env = nexmarkEnv();
      env.executeSql(ddl);
      env.executeSql(sql);
    };
    expect(refused("CREATE TABLE p (a BIGINT) PARTITIONED BY (b) WITH ('connector' = 'filesystem', 'path' = '/tmp/p')", 'SELECT 1')).toThrow(/line 1, column 43: Partition column 'b' not defined in the table schema/);
    expect(refused("CREATE TABLE p (a BIGINT) PARTITIONED BY (a) WITH ('connector' = 'print')", 'INSERT INTO p SELECT auction FROM bid')).toThrow(/connector 'print' does not take PARTITIONED BY/);
    expect(refused("CREATE TABLE p (a BIGINT) PARTITIONED BY (a) WITH ('connector' = 'filesystem', 'path' = '/tmp/p')", 'SELECT a FROM p')).toThrow(/reading a partitioned filesystem table/);
    expect(refused("CREATE TABLE p (a BIGINT) PARTITIONED BY (a) WITH ('connector' = 'filesystem', 'path' = '/tmp/p', 'sink.rolling-policy.rollover-interval' = '1min')", 'INSERT INTO p SELECT auction FROM bid')).toThrow(
      expect.objectContaining({ code: 'SQL_UNSUPPORTED', message: expect.stringMatching(/option 'sink.rolling-policy.rollover-interval' is not supported/) }),
    );
  });

  it('plans q13 as a lookup join against its side_input table with the WITH adapted', () => {
    const tEnv = nexmarkEnv();
    const [side, sink, insert] = NEXMARK_QUERIES.q13!;
    tEnv.executeSql(nexmarkWith(side!, { connector: 'filesystem', path: '/tmp/weir-q13-side', format: 'csv' }));
    tEnv.executeSql(sink!);
    expect(tEnv.executeSql(`EXPLAIN ${insert!}`).toString()).toMatch(
      /LookupJoin\(table=\[default_catalog\.default_database\.side_input\], joinType=\[InnerJoin\], lookup=\[key=%\(auction, 10000\)\], select=\[.*p_time, key, value\]\), changelogMode=\[I\]/,
    );
    tEnv.executeSql(insert!);
  });

  it('reads the generator: event i as one ROW of its kind, the others NULL, the fields named in the DDL', () => {
    const generate = nexmarkRows(tableOf(`CREATE TABLE n (event_type INT, bid ROW<price BIGINT, \`dateTime\` TIMESTAMP(3), url STRING>, person ROW<name STRING>) WITH ('connector' = 'nexmark', 'events.num' = '100')`));
    const bid = nexmarkEvent(7) as { bid: { price: number; dateTime: number; url: string } };
    expect(generate(7)).toEqual([2, [bid.bid.price, bid.bid.dateTime, bid.bid.url], null]);
    const person = nexmarkEvent(0) as { person: { name: string } };
    expect(generate(0)).toEqual([0, null, [person.person.name]]);
  });

  it('refuses options and columns it does not have', () => {
    const create = (ddl: string) => () => nexmarkFactory.createSource!(tableOf(ddl));
    expect(create("CREATE TABLE n (event_type INT) WITH ('connector' = 'nexmark', 'bid.proportion' = '10')")).toThrow(/standard proportions only/);
    expect(create("CREATE TABLE n (bid ROW<cost BIGINT>) WITH ('connector' = 'nexmark')")).toThrow(/ROW bid has no field 'cost'/);
    expect(create("CREATE TABLE n (bids INT) WITH ('connector' = 'nexmark')")).toThrow(/no column 'bids'/);
    const tEnv = StreamTableEnvironment.create(new StreamExecutionEnvironment());
    tEnv.executeSql("CREATE TABLE n (event_type INT) WITH ('connector' = 'nexmark', 'event.num' = '1')");
    expect(() => tEnv.sqlQuery('SELECT event_type FROM n').explain()).toThrow(/has no option 'event.num'.*events.num/);
  });
});
