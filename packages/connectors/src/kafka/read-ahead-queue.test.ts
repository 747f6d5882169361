import { describe, expect, it } from 'vitest';
import { ReadAheadQueue } from './read-ahead-queue.ts';

describe('ReadAheadQueue', () => {
  it('gives the records of its runs in the order they were pushed, each with its owner', () => {
    const queue = new ReadAheadQueue<string, number>();
    queue.push('p0', [1, 2]);
    queue.push('p1', [3]);
    queue.push('p0', [4, 5]);
    const read: [string | undefined, number | undefined][] = [];
    while (queue.size > 0) {
      const owner = queue.nextOwner;
      read.push([owner, queue.shift()]);
    }
    expect(read).toEqual([
      ['p0', 1],
      ['p0', 2],
      ['p1', 3],
      ['p0', 4],
      ['p0', 5],
    ]);
    expect(queue.nextOwner).toBeUndefined();
    expect(queue.shift()).toBeUndefined();
  });

  it('counts what is queued and ignores empty runs', () => {
    const queue = new ReadAheadQueue<string, number>();
    queue.push('p0', []);
    expect(queue.size).toBe(0);
    expect(queue.nextOwner).toBeUndefined();
    queue.push('p1', [7, 8, 9]);
    queue.shift();
    expect(queue.size).toBe(2);
    expect(queue.nextOwner).toBe('p1');
  });

  it('drains a large run in time linear in its length', () => {
    const queue = new ReadAheadQueue<string, number>();
    const run = Array.from({ length: 200_000 }, (_, i) => i);
    queue.push('p0', run);
    let sum = 0;
    const started = performance.now();
    for (let record = queue.shift(); record !== undefined; record = queue.shift()) sum += record;
    // Array.prototype.shift on the same array takes seconds here (it moves the rest every time).
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(sum).toBe((200_000 * 199_999) / 2);
  });
});
