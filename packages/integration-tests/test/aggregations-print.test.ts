import { afterEach, describe, expect, it } from 'vitest';
import { readCommittedLines } from '@weir/examples';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobIdFrom, ProcessCluster, waitForStatus, writeJobFile } from '../src/index.ts';

const KEYS = 4;
const PER_KEY = 50;

/**
 * args: output dir (a FileSink directory per aggregation below it). Tuples [key, n, i] from one source subtask, so each key's tuples arrive in
 * order; keyed at parallelism 2, the rolling sum and maxBy of n go to a FileSink, the sums also
 * to print('sums'), which prefixes each line with the subtask (Flink's `sums:2> `).
 */
const AGGREGATIONS = `
import { StreamExecutionEnvironment } from '@weir/api';
import { FileSink, SimpleStringEncoder } from '@weir/connectors';

type T = [string, number, number];

export default function aggregations(env: StreamExecutionEnvironment, args: string[]) {
  env.setParallelism(2);
  const tuples: T[] = [];
  for (let i = 0; i < ${KEYS * PER_KEY}; i++) tuples.push(['k' + (i % ${KEYS}), (i * 7) % 11, i]);
  const keyed = env.fromElements(...tuples).setParallelism(1).keyBy((t: T) => t[0]);
  const sums = keyed.sum(1);
  sums.print('sums');
  sums.map((t: T) => 'sum ' + t.join(' ')).sinkTo(FileSink.forRowFormat(args[0]! + '/sum', new SimpleStringEncoder<string>()).build());
  keyed.maxBy(1).map((t: T) => 'maxBy ' + t.join(' ')).sinkTo(FileSink.forRowFormat(args[0]! + '/max-by', new SimpleStringEncoder<string>()).build());
}
`;

function expected(): string[] {
  const lines: string[] = [];
  const sum = new Map<string, [string, number, number]>();
  const max = new Map<string, [string, number, number]>();
  for (let i = 0; i < KEYS * PER_KEY; i++) {
    const t: [string, number, number] = [`k${i % KEYS}`, (i * 7) % 11, i];
    const s = sum.get(t[0]);
    // sum keeps the first record's other fields; maxBy the whole first record with the largest n.
    const next: [string, number, number] = s === undefined ? t : [s[0], s[1] + t[1], s[2]];
    sum.set(t[0], next);
    const m = max.get(t[0]);
    const best = m === undefined || t[1] > m[1] ? t : m;
    max.set(t[0], best);
    lines.push(`sum ${next.join(' ')}`, `maxBy ${best.join(' ')}`);
  }
  return lines.sort();
}

describe('rolling aggregations and print() on a process cluster', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('emits Flink\'s rolling sum and maxBy per key, and print() writes them to the TaskManager\'s stdout with the subtask prefix', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-aggregations-'));
    const cluster = await ProcessCluster.start({ taskManagers: 1, slots: 2 });
    cleanups.push(() => cluster.stop());
    const output = join(dir, 'out');
    const run = await cluster.weir(['run', '--detached', writeJobFile(AGGREGATIONS), '--', output]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const details = await waitForStatus(cluster.client, jobIdFrom(run.stdout), ['FINISHED', 'FAILED', 'CANCELED'], 60_000);
    expect(details.summary!.status, `${details.failureCause}\n${cluster.logs()}`).toBe('FINISHED');
    expect(readCommittedLines(output).sort()).toEqual(expected());
    const printed = cluster.taskManagers.flatMap((tm) => tm.output.split('\n')).filter((line) => /^sums:[12]> /.test(line));
    expect(printed.length).toBe(KEYS * PER_KEY);
    const printedRecords = printed.map((line) => line.replace(/^sums:[12]> /, '')).sort();
    const sums = expected().filter((line) => line.startsWith('sum ')).map((line) => line.slice(4).split(' ').join(','));
    expect(printedRecords).toEqual(sums.sort());
    // Both subtasks printed (the keys spread over both), each with its own prefix.
    expect(new Set(printed.map((line) => line.slice(0, 7)))).toEqual(new Set(['sums:1>', 'sums:2>']));
  });
});
