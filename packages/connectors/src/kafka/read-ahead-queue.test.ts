import { describe, expect, it } from 'vitest';
import { ReadAheadQueue, RECORDS_PER_TURN } from './read-ahead-queue.ts';

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

  it('lets owners take turns of at most RECORDS_PER_TURN records, each owner\'s records in order', () => {
    const queue = new ReadAheadQueue<string, number>();
    const backlog = Array.from({ length: RECORDS_PER_TURN * 2 + 200 }, (_, i) => i);
    queue.push('p0', backlog);
    queue.push('p1', [-1, -2]);
    queue.push('p2', [-3]);
    const owners: string[] = [];
    const p0: number[] = [];
    while (queue.size > 0) {
      const owner = queue.nextOwner!;
      const record = queue.shift()!;
      if (owners.at(-1) !== owner) owners.push(owner);
      if (owner === 'p0') p0.push(record);
    }
    expect(owners).toEqual(['p0', 'p1', 'p2', 'p0']);
    expect(p0).toEqual(backlog);
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
