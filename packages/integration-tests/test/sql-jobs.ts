/**
 * A SQL job whose output the test computes without the SQL engine: a datagen table whose row i
 * is a function of i (k = i % 7, amount = (i % 101) * 0.25, an event time 20 ms per row, up to
 * 499 ms out of order, watermark 1 s behind), TUMBLE (by key), HOP and CUMULATE (over all rows)
 * window aggregations into filesystem (csv) tables, window Top-N over the TUMBLE rows and over
 * the TUMBLE aggregation (append-only, into filesystem tables too), and an unbounded GROUP BY whose changelog
 * (+I, -U, +U) is written by a DataStream FileSink through toChangelogStream.
 */

export const BASE_TIME = 1_700_000_000_000;
export const WINDOW_MS = 2_000;
export const HOP_SLIDE_MS = 1_000;
export const HOP_SIZE_MS = 3_000;
export const CUMULATE_STEP_MS = 1_000;
export const CUMULATE_SIZE_MS = 4_000;
/** Rows per TUMBLE window in the window Top-N of rows, and keys in that of keys. */
export const TOP_N = 3;
export const TOP_KEYS = 2;

/** The directories of the window tables below `dir`: TUMBLE's, HOP's and CUMULATE's aggregations, the window Top-Ns of rows and of keys. */
export function windowDirs(dir: string): { tumble: string; hop: string; cumulate: string; topRows: string; topKeys: string } {
  return { tumble: `${dir}/tumble`, hop: `${dir}/hop`, cumulate: `${dir}/cumulate`, topRows: `${dir}/top-rows`, topKeys: `${dir}/top-keys` };
}

/** args: windows dir, changelog dir, rows, rows/s, checkpoint interval ms, checkpoint dir, parallelism */
export const SQL_JOB = `
import { CheckpointingMode, FsStateBackend, type StreamExecutionEnvironment } from '@weir/api';
import { FileSink, SimpleStringEncoder } from '@weir/connectors';
import { StreamTableEnvironment, rowToString } from '@weir/sql';

export default function sqlJob(env: StreamExecutionEnvironment, args: string[]) {
  const [windowsDir, changelogDir, rows, rate, interval, checkpointDir, parallelism] = args;
  env.setParallelism(Number(parallelism));
  env.enableCheckpointing(Number(interval));
  env.getCheckpointConfig().setCheckpointingMode(CheckpointingMode.EXACTLY_ONCE);
  env.setStateBackend(new FsStateBackend(checkpointDir));
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.executeSql(\`
    CREATE TABLE events (
      id BIGINT,
      k AS CAST(id % 7 AS INT),
      amount AS CAST(id % 101 AS DECIMAL(10, 2)) * 0.25,
      ts AS TO_TIMESTAMP_LTZ(${BASE_TIME} + id * 20 - id * 7919 % 500, 3),
      WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
    ) WITH (
      'connector' = 'datagen',
      'rows-per-second' = '\${rate}',
      'fields.id.kind' = 'sequence',
      'fields.id.start' = '0',
      'fields.id.end' = '\${Number(rows) - 1}'
    )\`);
  tEnv.executeSql(\`
    CREATE TABLE windows (k INT, window_start TIMESTAMP(3), window_end TIMESTAMP(3), cnt BIGINT, total DECIMAL(38, 2), biggest DECIMAL(12, 4))
    WITH ('connector' = 'filesystem', 'path' = '\${windowsDir}/tumble', 'format' = 'csv')\`);
  tEnv.executeSql(\`
    INSERT INTO windows
    SELECT k, window_start, window_end, COUNT(*), SUM(amount), MAX(amount)
    FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '${WINDOW_MS / 1000}' SECOND))
    GROUP BY k, window_start, window_end\`);
  for (const [name, tvf] of [
    ['hop', "HOP(TABLE events, DESCRIPTOR(ts), INTERVAL '${HOP_SLIDE_MS / 1000}' SECOND, INTERVAL '${HOP_SIZE_MS / 1000}' SECOND)"],
    ['cumulate', "CUMULATE(TABLE events, DESCRIPTOR(ts), INTERVAL '${CUMULATE_STEP_MS / 1000}' SECOND, INTERVAL '${CUMULATE_SIZE_MS / 1000}' SECOND)"],
  ]) {
    tEnv.executeSql(\`CREATE TABLE \${name} (window_start TIMESTAMP(3), window_end TIMESTAMP(3), cnt BIGINT, total DECIMAL(38, 2))
      WITH ('connector' = 'filesystem', 'path' = '\${windowsDir}/\${name}', 'format' = 'csv')\`);
    tEnv.executeSql(\`INSERT INTO \${name} SELECT window_start, window_end, COUNT(*), SUM(amount) FROM TABLE(\${tvf}) GROUP BY window_start, window_end\`);
  }
  // Window Top-N (Flink's documented form) over the window TVF's rows, then over the window aggregation's.
  tEnv.executeSql(\`CREATE TABLE top_rows (window_start TIMESTAMP(3), window_end TIMESTAMP(3), id BIGINT, amount DECIMAL(12, 4), rownum BIGINT)
    WITH ('connector' = 'filesystem', 'path' = '\${windowsDir}/top-rows', 'format' = 'csv')\`);
  tEnv.executeSql(\`
    INSERT INTO top_rows
    SELECT window_start, window_end, id, amount, rownum FROM (
      SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY amount DESC, id) AS rownum
      FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '${WINDOW_MS / 1000}' SECOND))
    ) WHERE rownum <= ${TOP_N}\`);
  tEnv.executeSql(\`CREATE TABLE top_keys (window_start TIMESTAMP(3), window_end TIMESTAMP(3), k INT, cnt BIGINT)
    WITH ('connector' = 'filesystem', 'path' = '\${windowsDir}/top-keys', 'format' = 'csv')\`);
  tEnv.executeSql(\`
    INSERT INTO top_keys
    SELECT window_start, window_end, k, cnt FROM (
      SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY cnt DESC, k) AS rn
      FROM (
        SELECT window_start, window_end, k, COUNT(*) AS cnt
        FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '${WINDOW_MS / 1000}' SECOND))
        GROUP BY window_start, window_end, k
      )
    ) WHERE rn <= ${TOP_KEYS}\`);
  const totals = tEnv.sqlQuery(\`
    SELECT k, COUNT(*) AS cnt, SUM(amount) AS total, AVG(id) AS avg_id
    FROM events WHERE id % 3 <> 0 GROUP BY k HAVING COUNT(*) > 10\`);
  tEnv.toChangelogStream(totals)
    .map((row) => rowToString(row, totals.fields)).uid('changelog-text')
    .sinkTo(FileSink.forRowFormat(changelogDir, new SimpleStringEncoder<string>()).build()).uid('changelog-sink');
}
`;

function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

/** A DECIMAL's text from its unscaled value. */
function decimal(unscaled: bigint, scale: number): string {
  const digits = unscaled.toString().padStart(scale + 1, '0');
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** The csv lines the TUMBLE aggregation commits for `rows` rows, sorted. */
export function expectedWindows(rows: number): string[] {
  const windows = new Map<string, { k: number; start: number; cnt: number; total: bigint; biggest: bigint }>();
  for (let i = 0; i < rows; i++) {
    const k = i % 7;
    const ts = BASE_TIME + i * 20 - ((i * 7919) % 500);
    const start = ts - (ts % WINDOW_MS);
    const amount = BigInt((i % 101) * 25); // hundredths
    const id = `${k}/${start}`;
    const w = windows.get(id) ?? { k, start, cnt: 0, total: 0n, biggest: -1n };
    w.cnt++;
    w.total += amount;
    if (amount > w.biggest) w.biggest = amount;
    windows.set(id, w);
  }
  return [...windows.values()]
    .map((w) => `${w.k},${timestamp(w.start)},${timestamp(w.start + WINDOW_MS)},${w.cnt},${decimal(w.total, 2)},${decimal(w.biggest * 100n, 4)}`)
    .sort();
}

/** The csv lines the window Top-N of rows commits: per TUMBLE window, its TOP_N rows by amount descending, then id, with their row number; sorted. */
export function expectedTopRows(rows: number): string[] {
  const windows = new Map<number, Array<{ id: number; amount: bigint }>>();
  for (let i = 0; i < rows; i++) {
    const ts = BASE_TIME + i * 20 - ((i * 7919) % 500);
    const start = ts - (ts % WINDOW_MS);
    windows.set(start, [...(windows.get(start) ?? []), { id: i, amount: BigInt((i % 101) * 25) }]);
  }
  return [...windows].flatMap(([start, members]) =>
    members
      .sort((a, b) => (a.amount === b.amount ? a.id - b.id : a.amount > b.amount ? -1 : 1))
      .slice(0, TOP_N)
      .map((m, rank) => `${timestamp(start)},${timestamp(start + WINDOW_MS)},${m.id},${decimal(m.amount * 100n, 4)},${rank + 1}`),
  ).sort();
}

/** The csv lines the window Top-N of keys commits: per TUMBLE window, the TOP_KEYS keys with the most rows (then the smaller key); sorted. */
export function expectedTopKeys(rows: number): string[] {
  const counts = new Map<number, Map<number, number>>();
  for (let i = 0; i < rows; i++) {
    const ts = BASE_TIME + i * 20 - ((i * 7919) % 500);
    const start = ts - (ts % WINDOW_MS);
    const perKey = counts.get(start) ?? new Map<number, number>();
    perKey.set(i % 7, (perKey.get(i % 7) ?? 0) + 1);
    counts.set(start, perKey);
  }
  return [...counts].flatMap(([start, perKey]) =>
    [...perKey]
      .sort(([ka, a], [kb, b]) => b - a || ka - kb)
      .slice(0, TOP_KEYS)
      .map(([k, cnt]) => `${timestamp(start)},${timestamp(start + WINDOW_MS)},${k},${cnt}`),
  ).sort();
}

/** The csv lines HOP (all rows, no key) or CUMULATE commits for `rows` rows, sorted. */
export function expectedAllRowWindows(rows: number, fn: 'hop' | 'cumulate'): string[] {
  const windows = new Map<string, { cnt: number; total: bigint }>();
  for (let i = 0; i < rows; i++) {
    const ts = BASE_TIME + i * 20 - ((i * 7919) % 500);
    const amount = BigInt((i % 101) * 25);
    const spans: Array<[number, number]> = [];
    if (fn === 'hop') {
      for (let start = ts - (ts % HOP_SLIDE_MS); start > ts - HOP_SIZE_MS; start -= HOP_SLIDE_MS) spans.push([start, start + HOP_SIZE_MS]);
    } else {
      const start = ts - (ts % CUMULATE_SIZE_MS);
      for (let end = start + CUMULATE_STEP_MS; end <= start + CUMULATE_SIZE_MS; end += CUMULATE_STEP_MS) if (end > ts) spans.push([start, end]);
    }
    for (const [start, end] of spans) {
      const id = `${timestamp(start)},${timestamp(end)}`;
      const w = windows.get(id) ?? { cnt: 0, total: 0n };
      w.cnt++;
      w.total += amount;
      windows.set(id, w);
    }
  }
  return [...windows].map(([id, w]) => `${id},${w.cnt},${decimal(w.total, 2)}`).sort();
}

/** The final rows of the GROUP BY (as +I/+U rows would print them, kind aside), sorted. */
export function expectedTotals(rows: number): string[] {
  const groups = new Map<number, { cnt: number; total: bigint; ids: number }>();
  for (let i = 0; i < rows; i++) {
    if (i % 3 === 0) continue;
    const k = i % 7;
    const g = groups.get(k) ?? { cnt: 0, total: 0n, ids: 0 };
    g.cnt++;
    g.total += BigInt((i % 101) * 2500); // ten-thousandths: SUM of DECIMAL(12, 4)
    g.ids += i;
    groups.set(k, g);
  }
  return [...groups]
    .filter(([, g]) => g.cnt > 10)
    .map(([k, g]) => `[${k}, ${g.cnt}, ${decimal(g.total, 4)}, ${Math.trunc(g.ids / g.cnt)}]`)
    .sort();
}

/**
 * The table a changelog leaves: +I and +U add their row, -U and -D take it away. Each row
 * must end up there once or not at all: a retraction or an update written twice (output of a
 * failed attempt committed beside its replay) leaves a count of 2 or -1, which is returned too.
 */
export function materialize(changelog: readonly string[]): { rows: string[]; wrongCounts: string[] } {
  const counts = new Map<string, number>();
  for (const line of changelog) {
    const kind = line.slice(0, 2);
    const row = line.slice(2);
    counts.set(row, (counts.get(row) ?? 0) + (kind === '+I' || kind === '+U' ? 1 : -1));
  }
  return {
    rows: [...counts].filter(([, n]) => n === 1).map(([row]) => row).sort(),
    wrongCounts: [...counts].filter(([, n]) => n !== 0 && n !== 1).map(([row, n]) => `${row} x${n}`),
  };
}
