import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SplitSourceHarness } from '@weir/api/testing';
import { PostgresServer, postgresAvailable } from '@weir/postgres-server';
import type { ChangeEvent } from './change-event.ts';
import { PostgresCdcSource } from './postgres-cdc-source.ts';
import { describeLeftSlot } from './replication-slot.ts';
import { compareLsn } from './stream-reader.ts';

import { setTimeout as sleep } from 'node:timers/promises';

/** How long a reader may have nothing before a poll takes it as caught up: generous, since setting up a slot takes seconds on a loaded machine. */
const SETTLE_MS = 5_000;

describe.skipIf(!postgresAvailable())('PostgresCdcSource against a real PostgreSQL', () => {
  let server: PostgresServer;

  beforeAll(async () => {
    server = await PostgresServer.start();
    server.psql("CREATE TABLE items (id int PRIMARY KEY, v text); INSERT INTO items SELECT g, 'v' || g FROM generate_series(1, 5000) g");
    // initdb and the server's start take tens of seconds on a loaded machine.
  }, 120_000);

  afterAll(async () => {
    await server?.destroy();
  });

  const source = () => PostgresCdcSource.builder().hostname('127.0.0.1').port(server.port).database('postgres').tableList('items').slotName('weir_test').build();
  const slotLsn = () => server.psql("SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'weir_test'");
  const brief = (e: ChangeEvent) => `${e.op} ${String((e.after ?? e.before)!['id'])} ${String(e.after?.['v'] ?? '')}`;

  it('snapshots from the slot\'s exported snapshot, then streams the changes made meanwhile; the slot advances only on checkpoint completion; a restore resumes after the checkpoint', async () => {
    const harness = await SplitSourceHarness.start(source(), 2);
    expect(await harness.poll(1)).toEqual([]);
    const first = (await harness.poll(0, 3000, SETTLE_MS)) as ChangeEvent[];
    expect(first.every((e) => e.op === 'r' && e.source.snapshot)).toBe(true);
    server.psql("INSERT INTO items VALUES (6000, 'new'); UPDATE items SET v = 'changed' WHERE id = 1; DELETE FROM items WHERE id = 4000");
    const rest = (await harness.poll(0, Number.POSITIVE_INFINITY, SETTLE_MS)) as ChangeEvent[];
    const snapshot = [...first, ...rest].filter((e) => e.op === 'r');
    expect(snapshot.map((e) => e.after!['id'])).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    expect(snapshot[0]!.after!['v']).toBe('v1');
    const changes = rest.filter((e) => e.op !== 'r');
    expect(changes.map(brief)).toEqual(['c 6000 new', 'u 1 changed', 'd 4000 ']);
    expect(changes[0]!.source).toMatchObject({ table: 'items', schema: 'public', snapshot: false });
    expect(changes[0]!.source.txId).toBeGreaterThan(0);

    const before = slotLsn();
    const checkpoint = harness.snapshot(1);
    await sleep(300);
    expect(slotLsn()).toBe(before);
    await harness.readers[0]!.notifyCheckpointComplete!(1);
    for (let i = 0; i < 50 && slotLsn() === before; i++) await sleep(100);
    expect(slotLsn()).not.toBe(before);
    server.psql("UPDATE items SET v = 'after checkpoint' WHERE id = 2");
    await harness.poll(0, Number.POSITIVE_INFINITY, 500);
    await harness.close();

    // Restored at parallelism 1 from checkpoint 1: the change after it comes again, nothing before it.
    server.psql("INSERT INTO items VALUES (7000, 'later')");
    const restored = await SplitSourceHarness.start(source(), 1, checkpoint);
    expect(((await restored.poll(0, Number.POSITIVE_INFINITY, SETTLE_MS)) as ChangeEvent[]).map(brief)).toEqual(['u 2 after checkpoint', 'c 7000 later']);
    await restored.close();
  }, 120_000);

  it('moves its slot past the WAL of tables it does not capture while its own tables are quiet (the heartbeat), so the server can release it', async () => {
    server.psql('CREATE TABLE busy (id int PRIMARY KEY, v text)');
    const quiet = PostgresCdcSource.builder().hostname('127.0.0.1').port(server.port).database('postgres').tableList('items').slotName('weir_quiet').heartbeatIntervalMs(200).build();
    const harness = await SplitSourceHarness.start(quiet, 1);
    await harness.poll(0, Number.POSITIVE_INFINITY, SETTLE_MS);
    const confirmed = () => server.psql("SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = 'weir_quiet'");
    server.psql("INSERT INTO busy SELECT g, repeat('x', 200) FROM generate_series(1, 20000) g");
    const written = server.psql('SELECT pg_current_wal_lsn()');
    let checkpointId = 0;
    for (let i = 0; i < 100 && compareLsn(confirmed(), written) < 0; i++) {
      expect(await harness.poll(0, Number.POSITIVE_INFINITY, 200)).toEqual([]);
      harness.snapshot(++checkpointId);
      await harness.readers[0]!.notifyCheckpointComplete!(checkpointId);
      await sleep(100);
    }
    expect(compareLsn(confirmed(), written), `slot at ${confirmed()}, the other table's writes end at ${written}`).toBeGreaterThanOrEqual(0);
    await harness.close();
    server.psql("SELECT pg_drop_replication_slot('weir_quiet')");
  }, 120_000);

  it('claims its slot, keeps it when the job fails or by default, drops it on cancel when told to; describeLeftSlot says whether it is there', async () => {
    const built = (drop: boolean) => PostgresCdcSource.builder().hostname('127.0.0.1').port(server.port).database('postgres').tableList('items').slotName('weir_hygiene').dropSlotOnStop(drop).build();
    const [claim] = built(false).exclusiveResources();
    expect(claim).toMatchObject({ kind: 'postgres.replication-slot', scope: `127.0.0.1:${server.port}/postgres`, name: 'weir_hygiene' });
    expect(claim!.leftBehind).toContain(`psql -h 127.0.0.1 -p ${server.port} -d postgres -c "SELECT pg_drop_replication_slot('weir_hygiene')"`);
    expect(built(true).exclusiveResources()[0]!.leftBehind).toBeUndefined();
    const exists = () => server.psql("SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'weir_hygiene'");
    const harness = await SplitSourceHarness.start(built(true), 1);
    await harness.poll(0, 100, SETTLE_MS);
    expect(exists()).toBe('1');
    await harness.close();
    await built(false).jobEnded('CANCELED');
    await built(true).jobEnded('FAILED');
    expect(exists()).toBe('1');
    const previous = process.env['PGUSER'];
    process.env['PGUSER'] = 'postgres';
    try {
      expect(await describeLeftSlot(claim!)).toMatch(/^replication slot 'weir_hygiene' on 127\.0\.0\.1:\d+\/postgres: still there, holding .* of WAL; drop it with: SELECT pg_drop_replication_slot\('weir_hygiene'\)$/);
      await built(true).jobEnded('CANCELED');
      expect(exists()).toBe('0');
      expect(await describeLeftSlot(claim!)).toBe(`replication slot 'weir_hygiene' on 127.0.0.1:${server.port}/postgres: dropped`);
    } finally {
      if (previous === undefined) delete process.env['PGUSER'];
      else process.env['PGUSER'] = previous;
    }
  }, 120_000);
});
