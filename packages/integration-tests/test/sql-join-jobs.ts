/**
 * A SQL job of joins and Top-N whose output the test computes without the SQL engine. Rows are
 * functions of their index (datagen sequences), so a restored job regenerates what it lost:
 * - orders: id 0..N-1, k = id % 13, amount = id * 7919 % 1000, an event time 20 ms per row up
 *   to 499 ms out of order (watermark 1 s behind);
 * - shipments: sid 0..N/3-1 for order oid = 3 * sid, shipped (sid % 5) s after the order's
 *   20 ms slot, up to 4 s out of order (watermark 5 s behind, so no shipment is late);
 * - customers: cid 0..9 named c<cid>.
 * Queries: a LEFT interval join (each order with its shipment if shipped within 3 s, else alone), a FULL window join of orders and their
 * shipments in the same 2 s tumbling window, and session windows per key (1 s gap; orders
 * with id % 200 >= 100 left out, so each key's sessions end at 2 s holes) into filesystem
 * tables; a LEFT JOIN of
 * orders with customers (keys 10-12 have none, a residual predicate drops more) and a Top-3
 * per key, both as changelogs (+I/-U/+U/-D) written through toChangelogStream.
 */
export const JOIN_BASE_TIME = 1_700_000_000_000;

/** args: shipped dir, left-join changelog dir, top-n changelog dir, orders, rows/s, checkpoint interval ms, checkpoint dir, parallelism, sessions dir, window-join dir */
export const SQL_JOIN_JOB = `
import { CheckpointingMode, FsStateBackend, type StreamExecutionEnvironment } from '@weir/api';
import { FileSink, SimpleStringEncoder } from '@weir/connectors';
import { StreamTableEnvironment, rowToString, type Table } from '@weir/sql';

export default function sqlJoinJob(env: StreamExecutionEnvironment, args: string[]) {
  const [shippedDir, joinedDir, topDir, orders, rate, interval, checkpointDir, parallelism, sessionsDir, windowedDir] = args;
  env.setParallelism(Number(parallelism));
  env.enableCheckpointing(Number(interval));
  env.getCheckpointConfig().setCheckpointingMode(CheckpointingMode.EXACTLY_ONCE);
  env.setStateBackend(new FsStateBackend(checkpointDir));
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.executeSql(\`
    CREATE TABLE orders (
      id BIGINT,
      k AS id % 13,
      amount AS CAST(id * 7919 % 1000 AS INT),
      ts AS TO_TIMESTAMP_LTZ(${JOIN_BASE_TIME} + id * 20 - id * 7919 % 500, 3),
      WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
    ) WITH ('connector' = 'datagen', 'rows-per-second' = '\${rate}', 'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '\${Number(orders) - 1}')\`);
  tEnv.executeSql(\`
    CREATE TABLE shipments (
      sid BIGINT,
      oid AS sid * 3,
      ts AS TO_TIMESTAMP_LTZ(${JOIN_BASE_TIME} + sid * 60 + sid % 5 * 1000, 3),
      WATERMARK FOR ts AS ts - INTERVAL '5' SECOND
    ) WITH ('connector' = 'datagen', 'rows-per-second' = '\${Number(rate) / 3}', 'fields.sid.kind' = 'sequence', 'fields.sid.start' = '0', 'fields.sid.end' = '\${Number(orders) / 3 - 1}')\`);
  tEnv.executeSql(\`
    CREATE TABLE customers (cid BIGINT, name AS CONCAT('c', CAST(cid AS STRING)))
    WITH ('connector' = 'datagen', 'rows-per-second' = '5', 'fields.cid.kind' = 'sequence', 'fields.cid.start' = '0', 'fields.cid.end' = '9')\`);
  tEnv.executeSql(\`CREATE TABLE shipped (oid BIGINT, sid BIGINT, amount INT)
    WITH ('connector' = 'filesystem', 'path' = '\${shippedDir}', 'format' = 'csv')\`);
  tEnv.executeSql(\`
    INSERT INTO shipped
    SELECT o.id, s.sid, o.amount
    FROM orders AS o LEFT JOIN shipments AS s
    ON o.id = s.oid AND s.ts BETWEEN o.ts AND o.ts + INTERVAL '3' SECOND\`);
  tEnv.executeSql(\`CREATE TABLE windowed (oid BIGINT, sid BIGINT)
    WITH ('connector' = 'filesystem', 'path' = '\${windowedDir}', 'format' = 'csv')\`);
  tEnv.executeSql(\`
    INSERT INTO windowed
    SELECT L.id, R.sid
    FROM (SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '2' SECOND))) L
    FULL JOIN (SELECT * FROM TABLE(TUMBLE(TABLE shipments, DESCRIPTOR(ts), INTERVAL '2' SECOND))) R
    ON L.window_start = R.window_start AND L.window_end = R.window_end AND L.id = R.oid\`);
  tEnv.executeSql(\`CREATE TABLE sessions (k BIGINT, s TIMESTAMP(3), e TIMESTAMP(3), cnt BIGINT)
    WITH ('connector' = 'filesystem', 'path' = '\${sessionsDir}', 'format' = 'csv')\`);
  tEnv.executeSql(\`
    INSERT INTO sessions
    SELECT k, SESSION_START(ts, INTERVAL '1' SECOND), SESSION_END(ts, INTERVAL '1' SECOND), COUNT(*)
    FROM orders WHERE id % 200 < 100
    GROUP BY k, SESSION(ts, INTERVAL '1' SECOND)\`);
  const changelog = (table: Table, dir: string, name: string) =>
    tEnv.toChangelogStream(table)
      .map((row) => rowToString(row, table.fields)).uid(name + '-text')
      .sinkTo(FileSink.forRowFormat(dir, new SimpleStringEncoder<string>()).build()).uid(name + '-sink');
  changelog(tEnv.sqlQuery(\`
    SELECT o.id, o.k, c.name
    FROM orders o LEFT JOIN customers c ON o.k = c.cid AND o.amount >= c.cid * 50\`), joinedDir, 'joined');
  changelog(tEnv.sqlQuery(\`
    SELECT k, rn, id, amount FROM (
      SELECT k, id, amount, ROW_NUMBER() OVER (PARTITION BY k ORDER BY amount DESC, id DESC) AS rn FROM orders
    ) WHERE rn <= 3\`), topDir, 'top');
}
`;

const amountOf = (id: number): number => (id * 7919) % 1000;
const orderTime = (id: number): number => JOIN_BASE_TIME + id * 20 - ((id * 7919) % 500);

/** The csv lines of the LEFT interval join: an order with its shipment when shipped within 3 s, else with an empty sid; sorted. */
export function expectedShipped(orders: number): string[] {
  const lines: string[] = [];
  for (let oid = 0; oid < orders; oid++) {
    const sid = oid % 3 === 0 ? oid / 3 : undefined;
    const lag = sid === undefined ? undefined : JOIN_BASE_TIME + sid * 60 + (sid % 5) * 1000 - orderTime(oid);
    const shipped = lag !== undefined && lag >= 0 && lag <= 3000;
    lines.push(`${oid},${shipped ? sid : ''},${amountOf(oid)}`);
  }
  return lines.sort();
}

/** The csv lines of the FULL window join: an order and its shipment in the same 2 s window, or each alone (the other side empty). */
export function expectedWindowed(orders: number): string[] {
  const window = (t: number) => Math.floor(t / 2000);
  const shipments = new Map<number, number>();
  for (let sid = 0; sid < orders / 3; sid++) shipments.set(sid * 3, sid);
  const lines: string[] = [];
  for (let id = 0; id < orders; id++) {
    const sid = shipments.get(id);
    const together = sid !== undefined && window(orderTime(id)) === window(JOIN_BASE_TIME + sid * 60 + (sid % 5) * 1000);
    lines.push(together ? `${id},${sid}` : `${id},`);
    if (sid !== undefined && !together) lines.push(`,${sid}`);
  }
  return lines.sort();
}

/** The LEFT JOIN's final rows as rowToString prints them (kind aside), sorted. */
export function expectedJoined(orders: number): string[] {
  const rows: string[] = [];
  for (let id = 0; id < orders; id++) {
    const k = id % 13;
    const match = k <= 9 && amountOf(id) >= k * 50;
    rows.push(`[${id}, ${k}, ${match ? `c${k}` : 'null'}]`);
  }
  return rows.sort();
}

/** The Top-3 per key's final rows, sorted. */
export function expectedTop(orders: number): string[] {
  const byKey = new Map<number, number[]>();
  for (let id = 0; id < orders; id++) byKey.set(id % 13, [...(byKey.get(id % 13) ?? []), id]);
  const rows: string[] = [];
  for (const [k, ids] of byKey) {
    ids.sort((a, b) => amountOf(b) - amountOf(a) || b - a);
    ids.slice(0, 3).forEach((id, i) => rows.push(`[${k}, ${i + 1}, ${id}, ${amountOf(id)}]`));
  }
  return rows.sort();
}

function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

/** The csv lines of the session windows: per key, times closer than the 1 s gap in one session [first, last + gap). */
export function expectedSessions(orders: number): string[] {
  const times = new Map<number, number[]>();
  for (let id = 0; id < orders; id++) if (id % 200 < 100) times.set(id % 13, [...(times.get(id % 13) ?? []), orderTime(id)]);
  const lines: string[] = [];
  for (const [k, ts] of times) {
    ts.sort((a, b) => a - b);
    let start = ts[0]!;
    let count = 0;
    ts.forEach((t, i) => {
      count++;
      const next = ts[i + 1];
      if (next === undefined || next >= t + 1000) {
        lines.push(`${k},${timestamp(start)},${timestamp(t + 1000)},${count}`);
        if (next !== undefined) start = next;
        count = 0;
      }
    });
  }
  return lines.sort();
}
