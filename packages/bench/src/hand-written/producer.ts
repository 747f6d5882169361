import { once } from 'node:events';
import type { Socket } from 'node:net';
import { Packr } from 'msgpackr';
import { END_FRAME, writeFrame } from './frames.ts';
import { hashKey, makeRecord, type ShuffleRecord } from './records.ts';

/** A batch becomes a frame at about this size, as Weir's buffers do. */
export const TARGET_BYTES = 32 * 1024;

/**
 * One producer of the hand-written shuffle: makes records `index`, `index + producers`, … below
 * `records`, routes each by the hash of its key to a consumer socket, packs batches of about
 * TARGET_BYTES with msgpackr (record structures, written once per batch) and writes them as
 * frames, waiting for 'drain' when a socket's buffer is full. Ends every socket with the end frame.
 */
export async function produce(sockets: readonly Socket[], index: number, producers: number, records: number, keys: number): Promise<void> {
  const packr = new Packr();
  const batches: ShuffleRecord[][] = sockets.map(() => []);
  // The first batch is one record; then as many as fit in TARGET_BYTES at the last batch's bytes per record.
  const thresholds = sockets.map(() => 1);
  const consumers = sockets.length;
  const send = (c: number): boolean => {
    const batch = batches[c]!;
    const payload = packr.pack(batch);
    thresholds[c] = Math.max(1, Math.floor((TARGET_BYTES * batch.length) / payload.byteLength));
    batch.length = 0;
    return writeFrame(sockets[c]!, payload);
  };
  for (let i = index; i < records; i += producers) {
    const record = makeRecord(i, keys);
    const c = hashKey(record.key) % consumers;
    const batch = batches[c]!;
    batch.push(record);
    if (batch.length >= thresholds[c]! && !send(c)) await once(sockets[c]!, 'drain');
  }
  for (let c = 0; c < consumers; c++) {
    if (batches[c]!.length > 0 && !send(c)) await once(sockets[c]!, 'drain');
    sockets[c]!.end(END_FRAME);
  }
}
