/** Jobs that misbehave, for the robustness tests: each names what it does wrong. */

/** A main that never returns. */
export const LOOPING_MAIN = `
import { StreamExecutionEnvironment } from '@weir/api';
export default function looping(env: StreamExecutionEnvironment) {
  for (;;) {}
}
`;

/** A main that builds ever more data until its heap is gone. */
export const HUNGRY_MAIN = `
import { StreamExecutionEnvironment } from '@weir/api';
export default function hungry(env: StreamExecutionEnvironment) {
  const keep: number[][] = [];
  for (;;) keep.push(new Array(100_000).fill(keep.length));
}
`;

/** A map that calls process.exit(3) at record 7: in the TaskManager. */
export const EXITING_MAP = `
import { StreamExecutionEnvironment, Types } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

export default function exitingMap(env: StreamExecutionEnvironment) {
  env.fromSource(new DataGeneratorSource((i: number) => i, 1000, RateLimiterStrategy.noOp(), Types.NUMBER), 'numbers').uid('numbers')
    .map((n: number) => { if (n === 7) process.exit(3); return n; }).uid('exiting').name('exiting map')
    .sinkTo(new DiscardingSink<number>()).uid('sink');
}
`;

/** A checkpointed job emitting a class instance: refused at the first record (RECORD_REFUSED). args: checkpoint dir. */
export const REFUSED_CHECKPOINTED = `
import { StreamExecutionEnvironment, Types, FsStateBackend } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

class Point {
  constructor(public x: number, public y: number) {}
}

export default function refusedCheckpointed(env: StreamExecutionEnvironment, args: string[]) {
  env.enableCheckpointing(200);
  env.setStateBackend(new FsStateBackend(args[0]));
  env.fromSource(new DataGeneratorSource((i: number) => i, 1000, RateLimiterStrategy.perSecond(200), Types.NUMBER), 'numbers').uid('numbers')
    .map((i: number) => ({ key: i, at: new Point(i, 0) })).uid('locate').name('Locate')
    .keyBy((r: { key: number }) => r.key % 2)
    .filter(() => true).uid('near').name('Near')
    .sinkTo(new DiscardingSink()).uid('sink');
}
`;

/**
 * A checkpointed job whose records travel as Types.CUSTOM, and whose deserialize cannot read
 * reading 42: RECORD_DECODE_FAILED in the task after the keyBy. args: checkpoint dir.
 */
export const UNDECODABLE_CHECKPOINTED = `
import { StreamExecutionEnvironment, Types, FsStateBackend } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

type Reading = { sensor: number; celsius: number };

const READING = Types.CUSTOM<Reading>({
  name: 'Reading',
  version: 1,
  serialize: (r) => [r.sensor, r.celsius],
  deserialize: (data) => {
    const [sensor, celsius] = data as [number, number];
    if (sensor === 42) throw new Error('sensor 42 wrote a unit this version cannot read');
    return { sensor, celsius };
  },
});

export default function undecodable(env: StreamExecutionEnvironment, args: string[]) {
  env.enableCheckpointing(200);
  env.setStateBackend(new FsStateBackend(args[0]));
  env.fromSource(new DataGeneratorSource((i: number) => i, 1000, RateLimiterStrategy.perSecond(200), Types.NUMBER), 'numbers').uid('numbers')
    .map((i: number): Reading => ({ sensor: i, celsius: i / 10 })).uid('read').name('Read').returns(READING)
    .keyBy((r: Reading) => r.sensor % 2)
    .filter(() => true).uid('check').name('Check')
    .sinkTo(new DiscardingSink()).uid('sink');
}
`;

/**
 * One source subtask feeding two map subtasks over rebalance, each with its FileSink: the
 * TaskManager that holds the source only produces for the other one, never reads from it.
 * Writes 'n <i>' for each i < records. args: output dir, records, records/s, checkpoint
 * interval ms, checkpoint dir.
 */
export const ONE_WAY = `
import { StreamExecutionEnvironment, FsStateBackend, Types } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

export default function oneWay(env: StreamExecutionEnvironment, args: string[]) {
  const [output, records, rate, interval, checkpointDir] = args;
  env.setParallelism(2);
  env.enableCheckpointing(Number(interval));
  env.setStateBackend(new FsStateBackend(checkpointDir));
  env.fromSource(new DataGeneratorSource((i: number) => i, Number(records), RateLimiterStrategy.perSecond(Number(rate)), Types.NUMBER), 'numbers').uid('numbers').setParallelism(1)
    .rebalance()
    .map((i: number) => 'n ' + i).uid('format').name('Format')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

/**
 * ONE_WAY whose Format map blocks its TaskManager's event loop synchronously (a busy loop of
 * args[5] ms) on two records, a third and two thirds of the way through: their numbers differ
 * in parity, so the rebalance sends them to different subtasks. Each blocks once per cluster:
 * a marker file under args[6] says it did, so a restarted attempt runs through.
 */
export const BUSY_MAP = `
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StreamExecutionEnvironment, FsStateBackend, Types } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

export default function busyMap(env: StreamExecutionEnvironment, args: string[]) {
  const [output, records, rate, interval, checkpointDir, blockMs, markerDir] = args;
  const n = Number(records);
  const third = Math.floor(n / 3);
  // One even, one odd.
  const blockAt = [third - (third % 2), 2 * third + 1];
  const blockOnce = (i: number) => {
    const marker = join(markerDir, 'blocked-' + i);
    if (existsSync(marker)) return;
    writeFileSync(marker, '');
    const end = Date.now() + Number(blockMs);
    while (Date.now() < end) {
      // Busy: neither timers nor I/O run in this thread meanwhile.
    }
  };
  env.setParallelism(2);
  env.enableCheckpointing(Number(interval));
  env.setStateBackend(new FsStateBackend(checkpointDir));
  env.fromSource(new DataGeneratorSource((i: number) => i, n, RateLimiterStrategy.perSecond(Number(rate)), Types.NUMBER), 'numbers').uid('numbers').setParallelism(1)
    .rebalance()
    .map((i: number) => {
      if (blockAt.includes(i)) blockOnce(i);
      return 'n ' + i;
    }).uid('format').name('Format')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;
