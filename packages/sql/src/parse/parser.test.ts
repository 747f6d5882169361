import { describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import { SqlErrorCode } from '../errors.ts';
import { parseStatement, parseStatements } from './parser.ts';

describe('parseStatements (dt-sql-parser FlinkSQL grammar -> Weir SQL AST)', () => {
  it('reads CREATE TABLE with types, computed columns, WATERMARK, PRIMARY KEY and WITH', () => {
    const ddl = parseStatement(
      "CREATE TEMPORARY TABLE bids (auction BIGINT, price DECIMAL(10, 2), `dateTime` TIMESTAMP(3), p AS price * 2, WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '5' SECOND, PRIMARY KEY (auction) NOT ENFORCED) WITH ('connector' = 'datagen', 'rows-per-second' = '5')",
    );
    expect(ddl).toMatchObject({
      kind: 'createTable',
      name: 'bids',
      temporary: true,
      columns: [
        { name: 'auction', typeText: 'BIGINT' },
        { name: 'price', typeText: 'DECIMAL(10,2)' },
        { name: 'dateTime', typeText: 'TIMESTAMP(3)' },
        { name: 'p', computed: { kind: 'call', name: '*', args: [{ kind: 'column', path: ['price'] }, { kind: 'literal', text: '2' }] } },
      ],
      watermark: { column: 'dateTime', expr: { kind: 'call', name: '-', args: [{ kind: 'column', path: ['dateTime'] }, { kind: 'interval', value: '5', unit: 'SECOND' }] } },
      primaryKey: ['auction'],
      options: { connector: 'datagen', 'rows-per-second': '5' },
    });
  });

  it('reads window TVFs, GROUP BY and HAVING', () => {
    const query = parseStatement("SELECT window_start, COUNT(*) AS c FROM TABLE(HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '10' SECOND)) GROUP BY window_start, window_end HAVING COUNT(*) > 1");
    expect(query).toMatchObject({
      kind: 'select',
      items: [{ kind: 'expr', expr: { kind: 'column', path: ['window_start'] } }, { kind: 'expr', alias: 'c', expr: { kind: 'call', name: 'COUNT', star: true } }],
      from: { kind: 'window', fn: 'HOP', table: 'bids', timeColumn: 'ts', intervals: [{ value: '2', unit: 'SECOND' }, { value: '10', unit: 'SECOND' }] },
      groupBy: [{ kind: 'column', path: ['window_start'] }, { kind: 'column', path: ['window_end'] }],
      having: { kind: 'call', name: '>' },
    });
  });

  it('reads a + 1 in a select list (which the grammar splits after the column) with the positions as written', () => {
    const query = parseStatement('SELECT\n  price + 1, price - 2 * 3 AS x FROM t');
    expect(query).toMatchObject({
      items: [
        { expr: { kind: 'call', name: '+', args: [{ kind: 'column', path: ['price'], pos: { line: 2, column: 3 } }, { kind: 'literal', text: '1', pos: { line: 2, column: 11 } }], pos: { line: 2, column: 9 } } },
        { alias: 'x', expr: { kind: 'call', name: '-', args: [{ kind: 'column' }, { kind: 'call', name: '*' }] } },
      ],
    });
  });

  it('reads joins (ON and comma), UNION ALL chains, DISTINCT and ROW_NUMBER() OVER with its alias', () => {
    expect(parseStatement('SELECT a.x FROM a LEFT OUTER JOIN b ON a.k = b.k AND a.v > 1')).toMatchObject({
      from: { kind: 'join', joinType: 'LEFT', left: { kind: 'table', name: 'a' }, right: { kind: 'table', name: 'b' }, condition: { kind: 'call', name: 'AND' }, pos: { line: 1, column: 30 } },
    });
    expect(parseStatement('SELECT * FROM a AS x, b, c WHERE x.k = b.k')).toMatchObject({
      from: { kind: 'join', joinType: 'INNER', left: { kind: 'join', left: { name: 'a', alias: 'x' }, right: { name: 'b' } }, right: { name: 'c' } },
    });
    expect((parseStatement('SELECT * FROM a FULL JOIN b ON a.k = b.k') as { from: { joinType: string } }).from.joinType).toBe('FULL');
    const union = parseStatement('SELECT x FROM a UNION ALL SELECT x FROM b UNION ALL SELECT DISTINCT x FROM c');
    expect(union).toMatchObject({ kind: 'union', inputs: [{ from: { name: 'a' } }, { from: { name: 'b' } }, { distinct: true, from: { name: 'c' } }] });
    expect(parseStatement('SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY p DESC, q) AS rn FROM t')).toMatchObject({
      items: [
        { kind: 'star' },
        {
          kind: 'expr',
          alias: 'rn',
          expr: { kind: 'over', call: { name: 'ROW_NUMBER' }, partitionBy: [{ kind: 'column', path: ['k'] }], orderBy: [{ expr: { path: ['p'] }, desc: true }, { expr: { path: ['q'] }, desc: false }] },
        },
      ],
    });
  });

  it('reads several statements separated by ;', () => {
    expect(parseStatements('SHOW TABLES; DESCRIBE t; EXPLAIN SELECT a FROM t').map((s) => s.kind)).toEqual(['show', 'describe', 'explain']);
  });

  it('gives a syntax error with its line and column', () => {
    try {
      parseStatement('SELECT a\nFROM t WHERE');
      expect.unreachable();
    } catch (err) {
      expect(isWeirError(err, SqlErrorCode.SQL_PARSE_ERROR)).toBe(true);
      expect((err as Error).message).toMatch(/^SQL error at line 2, column \d+: /);
    }
  });

  it('says what is not supported yet, where it is', () => {
    expect(() => parseStatement('SELECT a FROM t JOIN u USING (a)')).toThrow(/line 1, column 24: JOIN \.\. USING .* is not supported by Weir's SQL yet/);
    expect(() => parseStatement('SELECT a FROM t UNION SELECT a FROM u')).toThrow(/line 1, column 1: UNION without ALL .* is not supported/);
  });
});
