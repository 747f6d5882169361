import { afterEach, describe, expect, it } from 'vitest';
import { keyGroupForKey } from '@weir/common';
import { ManualClock } from '@weir/common/testing';
import { rm } from 'node:fs/promises';
import type { KeyedStateBackend } from '../state/keyed-state-backend.ts';
import {
  heapBackend,
  levelBackend,
  levelSettings,
  merged,
  restoreFrom,
  restoreInto,
  snapshot,
  tempDir,
} from '../state/level/level-test-support.ts';
import { PendingWork } from '../operators/pending-work.ts';
import { ProcessingTimeService } from '../time/processing-time-service.ts';
import { InternalTimerService, TIMERS_PER_SLICE, type InternalTimer } from './internal-timer-service.ts';

const noop = (): void => {};

interface Fired {
  domain: 'event' | 'processing';
  key: unknown;
  namespace: string;
  timestamp: number;
}

function timers(backend: KeyedStateBackend, clock = new ManualClock(1_000)) {
  const mail: (() => void)[] = [];
  const fired: Fired[] = [];
  const processingTime = new ProcessingTimeService(clock, (action) => mail.push(action));
  const work = new PendingWork();
  const record = (domain: Fired['domain']) => (timer: InternalTimer) => {
    // The timer's key is current while it fires.
    expect(backend.keys.key).toEqual(timer.key);
    fired.push({ domain, key: timer.key, namespace: timer.namespace, timestamp: timer.timestamp });
  };
  const service = new InternalTimerService('user', backend, processingTime, { onEventTime: record('event'), onProcessingTime: record('processing') }, work);
  const at = (key: unknown, register: () => void) => {
    backend.keys.setCurrentKey(key);
    register();
    backend.keys.clearCurrentKey();
  };
  const runMail = () => {
    while (mail.length !== 0) mail.shift()!();
  };
  return { service, fired, clock, at, runMail, processingTime, work };
}

function owns(backend: KeyedStateBackend, key: unknown): boolean {
  const group = keyGroupForKey(key, backend.keys.maxParallelism);
  return group >= backend.keys.range.start && group <= backend.keys.range.end;
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('InternalTimerService', () => {
  it('fires event-time timers in timestamp order, once per (key, timestamp), with the key current', () => {
    const t = timers(heapBackend());
    t.at('b', () => t.service.registerEventTimeTimer('', 30));
    t.at('a', () => t.service.registerEventTimeTimer('', 10));
    t.at('a', () => t.service.registerEventTimeTimer('', 10));
    t.at('a', () => t.service.registerEventTimeTimer('', 20));
    t.at('b', () => t.service.registerEventTimeTimer('', 10));
    expect(t.service.eventTimeTimers).toBe(4);
    t.service.advanceWatermark(15, noop);
    expect(t.fired.map((f) => [f.key, f.timestamp])).toEqual([
      ['a', 10],
      ['b', 10],
    ]);
    t.service.advanceWatermark(100, noop);
    expect(t.fired.map((f) => [f.key, f.timestamp])).toEqual([
      ['a', 10],
      ['b', 10],
      ['a', 20],
      ['b', 30],
    ]);
    expect(t.service.eventTimeTimers).toBe(0);
    expect(t.service.currentWatermark()).toBe(100);
  });

  it('keeps timers of different namespaces and domains apart, and deletes exactly the one named', () => {
    const t = timers(heapBackend());
    t.at('k', () => {
      t.service.registerEventTimeTimer('w1', 10);
      t.service.registerEventTimeTimer('w2', 10);
      t.service.registerProcessingTimeTimer('w1', 5_000);
      t.service.deleteEventTimeTimer('w1', 10);
      t.service.deleteEventTimeTimer('w1', 99);
    });
    t.service.advanceWatermark(Number.POSITIVE_INFINITY, noop);
    expect(t.fired).toEqual([{ domain: 'event', key: 'k', namespace: 'w2', timestamp: 10 }]);
    // Deleted, registered again: fires once.
    t.at('k', () => {
      t.service.deleteProcessingTimeTimer('w1', 5_000);
      t.service.registerProcessingTimeTimer('w1', 5_000);
    });
    t.clock.advance(10_000);
    t.runMail();
    expect(t.fired.slice(1)).toEqual([{ domain: 'processing', key: 'k', namespace: 'w1', timestamp: 5_000 }]);
  });

  it('fires processing-time timers from the clock, through the mail, in order; a timer in the past fires at once', () => {
    const t = timers(heapBackend());
    t.at(1, () => t.service.registerProcessingTimeTimer('', 3_000));
    t.at(2, () => t.service.registerProcessingTimeTimer('', 2_000));
    t.clock.advance(999);
    t.runMail();
    expect(t.fired).toEqual([]);
    t.clock.advance(1);
    t.runMail();
    expect(t.fired.map((f) => f.key)).toEqual([2]);
    t.at(3, () => t.service.registerProcessingTimeTimer('', 500));
    t.clock.advance(0);
    t.runMail();
    expect(t.fired.map((f) => f.key)).toEqual([2, 3]);
    t.clock.advance(1_000);
    t.runMail();
    expect(t.fired.map((f) => f.key)).toEqual([2, 3, 1]);
    expect(t.service.processingTimeTimers).toBe(0);
  });

  it('fires, in the same pass, timers that a firing timer registers at or before the watermark', () => {
    const backend = heapBackend();
    const fired: number[] = [];
    const processingTime = new ProcessingTimeService(new ManualClock(), () => {});
    const service: InternalTimerService = new InternalTimerService('user', backend, processingTime, {
      onEventTime: (timer) => {
        fired.push(timer.timestamp);
        if (timer.timestamp < 30) service.registerEventTimeTimer('', timer.timestamp + 10);
      },
      onProcessingTime: () => {},
    }, new PendingWork());
    backend.keys.setCurrentKey('k');
    service.registerEventTimeTimer('', 10);
    service.advanceWatermark(25, noop);
    expect(fired).toEqual([10, 20]);
    service.advanceWatermark(40, noop);
    expect(fired).toEqual([10, 20, 30]);
  });

  it('fires the timers of a watermark that makes many due in bounded slices, passing the watermark on after the last', async () => {
    const t = timers(heapBackend());
    const count = 3 * TIMERS_PER_SLICE + 5;
    for (let i = 0; i < count; i++) t.at(`k${i}`, () => t.service.registerEventTimeTimer('', i));
    const passedOn: number[] = [];
    t.service.advanceWatermark(Number.POSITIVE_INFINITY, () => passedOn.push(Number.POSITIVE_INFINITY));
    // One slice at once; the rest waits for the task's pending work, which yields to the event loop between slices.
    expect(t.fired.length).toBe(TIMERS_PER_SLICE);
    expect(passedOn).toEqual([]);
    expect(t.work.count).toBe(1);
    // A watermark arriving meanwhile waits for the one before it.
    t.service.advanceWatermark(Number.POSITIVE_INFINITY, () => passedOn.push(0));
    await t.work.drain();
    expect(t.fired.map((f) => f.timestamp)).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(passedOn).toEqual([Number.POSITIVE_INFINITY, 0]);
    expect(t.service.eventTimeTimers).toBe(0);
  });

  it('stores timers as keyed state, an entry each: removed from state as they fire, nothing left after', () => {
    const backend = heapBackend();
    const t = timers(backend);
    for (let i = 0; i < 50; i++) t.at(`k${i}`, () => t.service.registerEventTimeTimer('', i));
    // Many timers of one key are entries of their own: registering one more touches only its own.
    for (let i = 0; i < 1_000; i++) t.at('many', () => t.service.registerEventTimeTimer('', 100_000 + i));
    expect(backend.entryCounts()).toEqual({ __weir_timers_user: 1_050 });
    t.service.advanceWatermark(99_999, noop);
    expect(backend.entryCounts()).toEqual({ __weir_timers_user: 1_000 });
    t.service.advanceWatermark(100_499, noop);
    expect(backend.entryCounts()).toEqual({ __weir_timers_user: 500 });
    t.service.advanceWatermark(Number.POSITIVE_INFINITY, noop);
    expect(backend.entryCounts()).toEqual({ __weir_timers_user: 0 });
  });

  it.each([
    ['heap checkpoint', 'heap', 'checkpoint'],
    ['heap savepoint (canonical)', 'heap', 'savepoint'],
    ['LevelDB checkpoint', 'level', 'checkpoint'],
    ['LevelDB savepoint (canonical)', 'level', 'savepoint'],
  ] as const)('restores from a %s at parallelism 3 and then 1: every timer fires exactly once, on its key', async (_name, backendKind, type) => {
    const checkpointDir = tempDir('timers-chk');
    const local = tempDir('timers-local');
    dirs.push(checkpointDir, local);
    const settings = levelSettings(checkpointDir, false);
    const create = async (parallelism: number, subtask: number): Promise<KeyedStateBackend> =>
      backendKind === 'heap' ? heapBackend(parallelism, subtask) : levelBackend(local, parallelism, subtask);
    const options = type === 'savepoint' ? { type, targetLocation: `${checkpointDir}/sp-1` } : ({ type } as const);

    // Parallelism 2: 200 keys, each with an event-time timer at i and a processing-time timer at 100_000 + i.
    const keys = Array.from({ length: 200 }, (_, i) => i);
    const before: KeyedStateBackend[] = [await create(2, 0), await create(2, 1)];
    const firstSnapshots = [];
    for (const [subtask, backend] of before.entries()) {
      const t = timers(backend);
      for (const i of keys) {
        if (!owns(backend, i)) continue;
        backend.keys.setCurrentKey(i);
        t.service.registerEventTimeTimer('', i);
        t.service.registerProcessingTimeTimer('', 100_000 + i);
      }
      backend.keys.clearCurrentKey();
      firstSnapshots.push((await snapshot(settings, backend, 1, subtask, options)).state);
    }
    const directory = type === 'savepoint' ? 'sp-1' : 'chk-1';
    const restoreAll = merged(...firstSnapshots);

    // Parallelism 3: fire the event-time timers below 100; snapshot the rest.
    const fired: Fired[] = [];
    const secondSnapshots = [];
    for (let subtask = 0; subtask < 3; subtask++) {
      const backend = await create(3, subtask);
      await restoreInto(restoreFrom(checkpointDir, 1, restoreAll, directory), backend);
      const t = timers(backend);
      await t.service.restore();
      t.service.advanceWatermark(99, noop);
      fired.push(...t.fired);
      secondSnapshots.push((await snapshot(settings, backend, 2, subtask, type === 'savepoint' ? { type, targetLocation: `${checkpointDir}/sp-2` } : options)).state);
      t.service.close();
    }

    // Parallelism 1: everything else fires, the processing-time timers at once as they are all due.
    const last = await create(1, 0);
    await restoreInto(restoreFrom(checkpointDir, 2, merged(...secondSnapshots), type === 'savepoint' ? 'sp-2' : 'chk-2'), last);
    const t = timers(last, new ManualClock(1_000_000));
    await t.service.restore();
    t.service.advanceWatermark(Number.POSITIVE_INFINITY, noop);
    t.clock.advance(0);
    t.runMail();
    fired.push(...t.fired);

    const event = fired.filter((f) => f.domain === 'event').map((f) => [f.key, f.timestamp]);
    const processing = fired.filter((f) => f.domain === 'processing').map((f) => [f.key, f.timestamp]);
    expect(event.sort((a, b) => (a[0] as number) - (b[0] as number))).toEqual(keys.map((i) => [i, i]));
    expect(processing.sort((a, b) => (a[0] as number) - (b[0] as number))).toEqual(keys.map((i) => [i, 100_000 + i]));
    for (const backend of before) await backend.dispose();
    await last.dispose();
  });
});
