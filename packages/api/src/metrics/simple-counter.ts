import type { Counter } from './types.ts';

/** Flink's SimpleCounter: a number. Not atomic, nor need it be: a task runs on one thread. */
export class SimpleCounter implements Counter {
  count = 0;

  inc(n = 1): void {
    this.count += n;
  }

  dec(n = 1): void {
    this.count -= n;
  }

  getCount(): number {
    return this.count;
  }
}
