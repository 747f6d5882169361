import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `read` every 50 ms until `done` holds for its value; fails after `timeoutMs`, naming `what` and the last value. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await sleep(50);
  }
}
