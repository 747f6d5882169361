import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkCounts } from './hand-written/records.ts';
import type { WorkerMessage } from './hand-written/worker.ts';

/** The compiled worker (`pnpm build`); this file sits at the same depth as dist/index.js, so the path works from both. */
const workerPath = fileURLToPath(new URL('../dist/hand-written-worker.js', import.meta.url));

const PRODUCERS = 2;
const CONSUMERS = 2;

/**
 * The shuffle written by hand, the yardstick of Weir's: two producer and two consumer Node
 * processes, msgpackr batches of about 32 KiB over TCP with a length prefix and backpressure on
 * 'drain', a Map count per key. Timed from the producers' start (all processes up and
 * connected) to the last consumer's counts; the counts are checked, every key exactly.
 * `cpuSeconds` is what the four processes used meanwhile, each as it measured itself.
 */
export async function runHandWrittenShuffle(records: number, keys: number): Promise<{ ms: number; cpuSeconds: number }> {
  if (!existsSync(workerPath)) throw new Error(`${workerPath} is missing; run pnpm build`);
  const workers: Worker[] = [];
  const start = (args: string[]): Worker => {
    const worker = new Worker(fork(workerPath, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    workers.push(worker);
    return worker;
  };
  try {
    const consumers = Array.from({ length: CONSUMERS }, () => start(['consumer', String(PRODUCERS)]));
    const ports = await Promise.all(consumers.map(async (c) => (await c.next('listening')).port));
    const producers = Array.from({ length: PRODUCERS }, (_, i) =>
      start(['producer', String(i), String(PRODUCERS), String(records), String(keys), ...ports.map(String)]),
    );
    await Promise.all(producers.map((p) => p.next('connected')));
    const started = performance.now();
    for (const p of producers) p.child.send({ kind: 'start' });
    const results = await Promise.all(consumers.map((c) => c.next('counted')));
    const ms = performance.now() - started;
    checkCounts(
      results.map((r) => r.counts),
      records,
      keys,
    );
    const produced = await Promise.all(producers.map((p) => p.next('produced')));
    const cpuMicros = [...results, ...produced].reduce((sum, r) => sum + r.cpuMicros, 0);
    return { ms, cpuSeconds: cpuMicros / 1e6 };
  } finally {
    for (const { child } of workers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** A worker process and the messages it sent that nobody took yet. */
class Worker {
  readonly #messages: WorkerMessage[] = [];
  #exit: string | undefined;
  #wake: (() => void) | undefined;

  constructor(readonly child: ChildProcess) {
    child.on('message', (message) => {
      this.#messages.push(message as WorkerMessage);
      this.#wake?.();
    });
    child.on('exit', (code, signal) => {
      this.#exit = signal ?? String(code);
      this.#wake?.();
    });
  }

  async next<K extends WorkerMessage['kind']>(kind: K): Promise<Extract<WorkerMessage, { kind: K }>> {
    for (;;) {
      const at = this.#messages.findIndex((m) => m.kind === kind);
      if (at !== -1) return this.#messages.splice(at, 1)[0] as Extract<WorkerMessage, { kind: K }>;
      if (this.#exit !== undefined) throw new Error(`a hand-written shuffle process exited (${this.#exit}) before sending ${kind}`);
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}
