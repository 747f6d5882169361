import { describe, expect, it } from 'vitest';
import { SlotPool } from './slot-pool.ts';

describe('SlotPool', () => {
  it('spreads a job over TaskManagers, taking from the one with the most free slots each time', () => {
    const pool = new SlotPool();
    pool.addTaskManager('tm-a', 'a:1', 1);
    pool.addTaskManager('tm-b', 'b:1', 3);
    pool.addTaskManager('tm-c', 'c:1', 2);
    expect(pool.allocate('job', 4)).toEqual([
      { taskManagerId: 'tm-b', dataAddress: 'b:1', slotIndex: 0 },
      { taskManagerId: 'tm-b', dataAddress: 'b:1', slotIndex: 1 },
      { taskManagerId: 'tm-c', dataAddress: 'c:1', slotIndex: 0 },
      { taskManagerId: 'tm-a', dataAddress: 'a:1', slotIndex: 0 },
    ]);
    expect(pool.stats()).toEqual({ free: 2, total: 6, taskManagers: 3 });
  });

  it('puts p=2 on two TaskManagers with several slots one slot on each', () => {
    const pool = new SlotPool();
    pool.addTaskManager('tm-1', 'h1:9', 4);
    pool.addTaskManager('tm-2', 'h2:9', 4);
    expect(pool.allocate('job', 2)?.map((s) => s.taskManagerId)).toEqual(['tm-1', 'tm-2']);
  });

  it('takes nothing when too few slots are free', () => {
    const pool = new SlotPool();
    pool.addTaskManager('tm-1', 'h1:9', 2);
    expect(pool.allocate('a', 1)).toHaveLength(1);
    expect(pool.allocate('b', 2)).toBeUndefined();
    expect(pool.stats()).toEqual({ free: 1, total: 2, taskManagers: 1 });
  });

  it('frees only the releasing job’s slots, and drops a removed TaskManager’s slots', () => {
    const pool = new SlotPool();
    pool.addTaskManager('tm-1', 'h1:9', 2);
    pool.addTaskManager('tm-2', 'h2:9', 2);
    pool.allocate('a', 2);
    pool.allocate('b', 1);
    pool.release('a');
    expect(pool.stats()).toEqual({ free: 3, total: 4, taskManagers: 2 });
    pool.removeTaskManager('tm-1');
    expect(pool.stats()).toEqual({ free: 2, total: 2, taskManagers: 1 });
    pool.release('b');
    expect(pool.stats()).toEqual({ free: 2, total: 2, taskManagers: 1 });
  });
});
