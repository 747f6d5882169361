/**
 * Measures records/s of an in-process pipeline: generator -> keyBy -> ValueState count ->
 * discarding sink, one Task per subtask. With `checkpoints` on, an exactly-once checkpoint
 * (filesystem backend on in-memory storage) is taken every interval (default 100 ms), and the
 * job ends with its final checkpoint. Records are numbers, strings, or (`record`) the shuffle
 * bench's `{ key: 'user-<i % keys>', amount: i % 100 }` keyed by `key`. With `taskManagers` > 1,
 * subtask i runs on simulated TaskManager i % taskManagers and channels between them copy their
 * buffers; every channel is encoded either way. CPU ns per record is the figure to compare on
 * a shared machine.
 * Run: node --import tsx packages/runtime/scripts/measure-pipeline.ts [records] [parallelism] [number|string|record] [off|on] [intervalMs] [filesystem|level] [keys] [taskManagers]
 */
import {
  Boundedness,
  InputStatus,
  KeyedProcessFunction,
  Types,
  ValueStateDescriptor,
  type Collector,
  type KeyedProcessContext,
  type ReaderOutput,
  type Source,
  type ValueState,
} from '@weir/api';
import { createLogger, isTerminalTaskState } from '@weir/common';
import type { TaskCheckpointing } from '../src/checkpoint/types.ts';
import { checkpoint, notifyAborted, notifyComplete } from '../src/testing/checkpoints.ts';
import { runJob, waitUntil, type RunningJob } from '../src/testing/harness.ts';
import { MemoryStorage } from '@weir/storage/testing';
import { CHECKPOINTING_DEFAULTS } from '../src/testing/checkpointing-defaults.ts';

const total = Number(process.argv[2] ?? 5_000_000);
const parallelism = Number(process.argv[3] ?? 1);
const keyKind = process.argv[4] ?? 'number';
const checkpoints = process.argv[5] === 'on';
const CHECKPOINT_INTERVAL_MS = Number(process.argv[6] ?? 100);
const backend = process.argv[7] === 'level' ? 'level' : 'filesystem';
const keys = Number(process.argv[8] ?? 10_000);
const taskManagers = Number(process.argv[9] ?? 1);

type Event = { key: string; amount: number };

function record(i: number): number | string | Event {
  if (keyKind === 'number') return i;
  if (keyKind === 'record') return { key: 'user-' + (i % keys), amount: i % 100 };
  return `key-${i % keys}`;
}

function generator(count: number): Source<number | string | Event> {
  return {
    boundedness: Boundedness.BOUNDED,
    createReader(ctx) {
      let next = Math.floor((ctx.subtaskIndex * count) / ctx.parallelism);
      const end = Math.floor(((ctx.subtaskIndex + 1) * count) / ctx.parallelism);
      return {
        pollNext(output: ReaderOutput<number | string | Event>) {
          if (next >= end) return InputStatus.END_OF_INPUT;
          const i = next++;
          output.collect(record(i));
          return InputStatus.MORE_AVAILABLE;
        },
        isAvailable: () => Promise.resolve(),
      };
    },
  };
}

class Count extends KeyedProcessFunction<unknown, unknown, number> {
  #count!: ValueState<number>;
  override open(): void {
    this.#count = this.getRuntimeContext().getState(new ValueStateDescriptor('count', Types.NUMBER));
  }
  override processElement(_v: unknown, _ctx: KeyedProcessContext<unknown>, out: Collector<number>): void {
    const next = (this.#count.value() ?? 0) + 1;
    this.#count.update(next);
    out.collect(next);
  }
}

const checkpointing: TaskCheckpointing | undefined = checkpoints
  ? { mode: 'EXACTLY_ONCE', backend, storage: new MemoryStorage(), maxInlineBytes: 0, asyncSnapshots: true, ...CHECKPOINTING_DEFAULTS }
  : undefined;

const allEnded = (job: RunningJob): boolean => job.deployed.every((d) => isTerminalTaskState(d.task.state));

/** The JobManager's part: a checkpoint every interval, completed once every task acknowledged. */
async function checkpointPeriodically(job: RunningJob): Promise<number> {
  let completed = 0;
  for (let id = 1; !allEnded(job); id++) {
    const due = performance.now() + CHECKPOINT_INTERVAL_MS;
    while (performance.now() < due && !allEnded(job)) await new Promise((resolve) => setTimeout(resolve, 5));
    if (allEnded(job) || !job.deployed.some((d) => d.isSource && d.task.state === 'RUNNING')) continue;
    if ((await checkpoint(job, id)) === 'acked') {
      notifyComplete(job, id);
      completed++;
    } else notifyAborted(job, id);
  }
  return completed;
}

let written = 0;
let allWrittenAt = 0;
const started = performance.now();
const cpuAtStart = process.cpuUsage();
const job = await runJob((env) => {
  env.setParallelism(parallelism);
  env
    .fromSource(generator(total), 'generator')
    .keyBy((v) => (typeof v === 'number' ? v % keys : typeof v === 'string' ? v : v.key))
    .process(new Count())
    .sinkTo({
      createWriter: () => ({
        write: () => {
          if (++written === total) allWrittenAt = performance.now();
        },
        flush: () => {},
        close: () => {},
      }),
    });
}, { taskManagers, ...(checkpointing === undefined ? {} : { checkpointing }) });
const completedCheckpoints = checkpoints ? await checkpointPeriodically(job) : 0;
await waitUntil(() => allEnded(job), 1e9);
// Records/s up to the last record written; with checkpoints the job then waits for its final checkpoint.
const seconds = (allWrittenAt - started) / 1000;
const secondsToFinished = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuAtStart);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const failed = [...job.changes.values()].flat().filter((c) => c.failure !== undefined);
createLogger('measure').info(
  { records: total, written, parallelism, keyKind, taskManagers, checkpoints, completedCheckpoints, seconds: Number(seconds.toFixed(2)), secondsToFinished: Number(secondsToFinished.toFixed(2)), recordsPerSecond: Math.round(total / seconds), cpuSeconds: Number(cpuSeconds.toFixed(2)), cpuNsPerRecord: Math.round((cpuSeconds * 1e9) / total), failed },
  'pipeline measured',
);
