import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresServer, postgresAvailable } from '@weir/postgres-server';
import { ConnectorErrorCode } from '../errors.ts';
import { DeliveryGuarantee } from '../kafka/kafka-writer.ts';
import { PostgresSink } from './postgres-sink.ts';

const context = (subtaskIndex = 0, parallelism = 1) => ({ jobId: 'j', subtaskIndex, parallelism, attemptNumber: 0 });

describe.skipIf(!postgresAvailable())('PostgresSink against a real PostgreSQL', () => {
  let server: PostgresServer;

  beforeAll(async () => {
    server = await PostgresServer.start();
    server.psql('CREATE TABLE kv (k int PRIMARY KEY, v int NOT NULL CHECK (v >= 0))');
  });

  afterAll(async () => {
    await server?.destroy();
  });

  const url = () => `jdbc:postgresql://127.0.0.1:${server.port}/postgres`;
  const upsert = (guarantee: DeliveryGuarantee) =>
    PostgresSink.builder<[number, number]>()
      .withUrl(url())
      .withUpsert('kv', ['k'], ([k, v]) => ({ k, v }))
      .setDeliveryGuarantee(guarantee)
      .setTransactionIdPrefix('t')
      .withBatchSize(3)
      .build();

  it('EXACTLY_ONCE: a prepared transaction is invisible until committed; a restore commits again and rolls back what no checkpoint promised', async () => {
    server.psql('TRUNCATE kv');
    const sink = upsert(DeliveryGuarantee.EXACTLY_ONCE);
    const writer = await sink.createWriter(context());
    for (const r of [[1, 1], [2, 2], [1, 10], [3, 3]] as [number, number][]) await writer.write(r);
    await writer.flush();
    const [committable] = await writer.prepareCommit(1);
    expect(committable!.gid).toBe('t-0-1');
    await writer.write([4, 4]);
    await writer.flush();
    await writer.prepareCommit(2);
    expect(server.psql('SELECT count(*) FROM kv')).toBe('0');
    expect(server.psql('SELECT gid FROM pg_prepared_xacts ORDER BY gid')).toBe('t-0-1\nt-0-2');
    await writer.close();

    // Restored from checkpoint 1: its transaction is committed (twice: idempotent), checkpoint 2's rolled back.
    const committer = sink.createCommitter();
    await committer.commit([committable!]);
    await committer.commit([committable!]);
    const restored = await sink.createWriter(context(), [{ checkpointId: 1 }]);
    expect(server.psql('SELECT k, v FROM kv ORDER BY k')).toBe('1|10\n2|2\n3|3');
    expect(server.psql('SELECT count(*) FROM pg_prepared_xacts')).toBe('0');
    await restored.close();
    await committer.close();
  });

  it('EXACTLY_ONCE: a committable whose transaction was rolled back fails the commit: its rows are lost', async () => {
    const sink = upsert(DeliveryGuarantee.EXACTLY_ONCE);
    const writer = await sink.createWriter(context());
    await writer.write([9, 9]);
    const [committable] = await writer.prepareCommit(7);
    server.psql("ROLLBACK PREPARED 't-0-7'");
    const committer = sink.createCommitter();
    await expect(committer.commit([committable!])).rejects.toMatchObject({ code: ConnectorErrorCode.POSTGRES_TRANSACTION_LOST });
    await committer.close();
    await writer.close();
  });

  it('AT_LEAST_ONCE: batches are committed as they fill up and at flush; a changelog applies inserts, updates and deletes', async () => {
    server.psql('TRUNCATE kv');
    const writer = await upsert(DeliveryGuarantee.AT_LEAST_ONCE).createWriter(context());
    for (const r of [[1, 1], [2, 2], [3, 3]] as [number, number][]) await writer.write(r);
    expect(server.psql('SELECT count(*) FROM kv')).toBe('3');
    await writer.write([1, 5]);
    await writer.flush();
    expect(server.psql('SELECT v FROM kv WHERE k = 1')).toBe('5');
    await writer.close();

    const changelog = await PostgresSink.builder().withUrl(url()).withChangelog('kv', ['k']).build().createWriter(context());
    await changelog.write({ op: 'u', before: null, after: { k: 2, v: 20 } });
    await changelog.write({ op: 'd', before: { k: 3, v: 3 }, after: null });
    await changelog.write({ op: 'c', before: null, after: { k: 4, v: 4 } });
    await changelog.write({ op: 'd', before: { k: 99 }, after: null });
    await changelog.flush();
    expect(server.psql('SELECT k, v FROM kv ORDER BY k')).toBe('1|5\n2|20\n4|4');
    await changelog.close();
  });

  it('names the table, the constraint and the record key of a violation; a missing table; a wrong password', async () => {
    const writer = await upsert(DeliveryGuarantee.AT_LEAST_ONCE).createWriter(context());
    await writer.write([5, 5]);
    await writer.write([6, -1]);
    await expect(writer.write([7, 7])).rejects.toThrow(/the record with key k=6 violates constraint kv_v_check of table kv/);
    await writer.close();
    await expect(PostgresSink.builder().withUrl(url()).withChangelog('nope', ['k']).build().createWriter(context())).rejects.toMatchObject({
      code: ConnectorErrorCode.POSTGRES_TABLE_NOT_FOUND,
      message: expect.stringMatching(/table nope does not exist in database 'postgres'/),
    });
    await expect(PostgresSink.builder().withUrl(url()).withUsername('weir_password').withPassword('wrong').withChangelog('kv', ['k']).build().createWriter(context())).rejects.toMatchObject({
      code: ConnectorErrorCode.POSTGRES_AUTH_FAILED,
    });
  });

  it('EXACTLY_ONCE refuses a server without prepared transactions and says how to set them', async () => {
    const other = await PostgresServer.start({ settings: { max_prepared_transactions: 0 } });
    try {
      other.psql('CREATE TABLE kv (k int PRIMARY KEY, v int)');
      const sink = PostgresSink.builder<[number, number]>().withUrl(`postgres://127.0.0.1:${other.port}/postgres`).withUpsert('kv', ['k'], ([k, v]) => ({ k, v })).setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE).build();
      await expect(sink.createWriter(context())).rejects.toMatchObject({ code: ConnectorErrorCode.POSTGRES_NOT_CONFIGURED, message: expect.stringMatching(/max_prepared_transactions is 0.*ALTER SYSTEM SET max_prepared_transactions/) });
    } finally {
      await other.destroy();
    }
  });
});
