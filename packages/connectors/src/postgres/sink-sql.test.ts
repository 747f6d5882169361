import { describe, expect, it } from 'vitest';
import { parsePostgresUrl, quoteTable } from './postgres-connection.ts';
import { gidOf, parseGid } from './prepared-transactions.ts';
import { deleteSql, upsertSql } from './sink-batch.ts';
import { toOperation } from './sink-operations.ts';
import { DeliveryGuarantee } from '../kafka/kafka-writer.ts';
import { PostgresSink } from './postgres-sink.ts';

describe('PostgresSink SQL and names', () => {
  it('builds a multi-row upsert and a delete by key, identifiers quoted', () => {
    expect(upsertSql('s.t', ['id'], ['id', 'v'], 2)).toBe('INSERT INTO "s"."t" ("id", "v") VALUES ($1, $2), ($3, $4) ON CONFLICT ("id") DO UPDATE SET "v" = EXCLUDED."v"');
    expect(upsertSql('t', ['a', 'b'], ['a', 'b'], 1)).toBe('INSERT INTO "t" ("a", "b") VALUES ($1, $2) ON CONFLICT ("a", "b") DO NOTHING');
    expect(deleteSql('t', ['a', 'b'], 2)).toBe('DELETE FROM "t" WHERE ("a", "b") IN (($1, $2), ($3, $4))');
    expect(quoteTable('we"ird')).toBe('"we""ird"');
  });

  it('names prepared transactions and reads the names back, only of its own prefix', () => {
    expect(gidOf('weir-abc', 3, 17)).toBe('weir-abc-3-17');
    expect(parseGid('weir-abc', 'weir-abc-3-17')).toEqual({ subtask: 3, checkpointId: 17 });
    expect(parseGid('weir-ab', 'weir-abc-3-17')).toBeUndefined();
    expect(parseGid('weir-abc', 'weir-abc-x-17')).toBeUndefined();
  });

  it('parses jdbc and postgres URLs, and says what a URL looks like', () => {
    expect(parsePostgresUrl('jdbc:postgresql://db:6543/shop?ssl=false')).toEqual({ hostname: 'db', port: 6543, database: 'shop' });
    expect(parsePostgresUrl('postgres://127.0.0.1/x')).toEqual({ hostname: '127.0.0.1', port: 5432, database: 'x' });
    expect(() => parsePostgresUrl('mysql://db/x')).toThrow(/jdbc:postgresql:\/\/host\[:port\]\/database/);
  });

  it('turns change events into upserts and deletes, and refuses other shapes', () => {
    const mode = { kind: 'changelog', table: 't', primaryKey: ['id'] } as const;
    expect(toOperation(mode, { op: 'u', before: null, after: { id: 1, v: 'x' } })).toEqual({ kind: 'upsert', row: { id: 1, v: 'x' } });
    expect(toOperation(mode, { op: 'd', before: { id: 1 }, after: null })).toEqual({ kind: 'delete', row: { id: 1 } });
    expect(() => toOperation(mode, { op: 'x' })).toThrow(/takes change events \{ op: 'c' \| 'r' \| 'u' \| 'd'/);
    expect(() => toOperation(mode, { op: 'c', after: { v: 1 } })).toThrow(/lacks its primary key column\(s\) id/);
  });

  it('claims its prepared transaction prefix in its database when EXACTLY_ONCE: by default the table\'s, so two jobs writing one table clash', () => {
    const sink = (guarantee: DeliveryGuarantee) =>
      PostgresSink.builder<{ k: number }>().withUrl('jdbc:postgresql://db:6543/shop').withUpsert('kv', ['k'], (r) => r).setDeliveryGuarantee(guarantee).build();
    const [claim] = sink(DeliveryGuarantee.EXACTLY_ONCE).exclusiveResources();
    expect(claim).toMatchObject({ kind: 'postgres.transaction-id-prefix', scope: 'db:6543/shop', name: expect.stringMatching(/^weir-[0-9a-f]{12}$/) });
    expect(sink(DeliveryGuarantee.EXACTLY_ONCE).exclusiveResources()).toEqual([claim]);
    expect(sink(DeliveryGuarantee.AT_LEAST_ONCE).exclusiveResources()).toEqual([]);
  });
});
