import type { Socket } from 'node:net';
import { Unpackr } from 'msgpackr';
import { FrameReader } from './frames.ts';
import type { ShuffleRecord } from './records.ts';

/** One consumer of the hand-written shuffle: counts records per key over its producers' connections. */
export class Consumer {
  readonly counts = new Map<string, number>();
  readonly #unpackr = new Unpackr();
  #open: number;
  readonly done: Promise<void>;
  #finish!: () => void;

  constructor(producers: number) {
    this.#open = producers;
    this.done = new Promise((resolve) => (this.#finish = resolve));
  }

  /** Reads one producer's connection until its end frame. */
  attach(socket: Socket): void {
    const counts = this.counts;
    const reader = new FrameReader(
      (payload) => {
        const records = this.#unpackr.unpack(payload) as ShuffleRecord[];
        for (let i = 0; i < records.length; i++) {
          const key = records[i]!.key;
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
      },
      () => {
        if (--this.#open === 0) this.#finish();
      },
    );
    socket.on('data', (chunk: Buffer) => reader.push(chunk));
  }
}
