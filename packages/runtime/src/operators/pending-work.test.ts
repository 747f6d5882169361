import { describe, expect, it } from 'vitest';
import { PendingWork } from './pending-work.ts';

describe('PendingWork.runOrDefer', () => {
  it('runs an action at once when no step runs', () => {
    const work = new PendingWork();
    const log: string[] = [];
    work.runOrDefer(() => log.push('timer'));
    expect(log).toEqual(['timer']);
    expect(work.count).toBe(0);
  });

  it('defers an action that comes while a step runs until that step (a checkpoint up to its barrier) is done', async () => {
    const work = new PendingWork();
    const log: string[] = [];
    let releaseSnapshot!: () => void;
    work.addStep(async () => {
      log.push('snapshot');
      await new Promise<void>((resolve) => (releaseSnapshot = resolve));
      log.push('barrier');
    });
    const drained = work.drain();
    await Promise.resolve();
    expect(work.stepRunning).toBe(true);
    // The task loop runs mail while the step awaits its state backend: a due timer's action.
    work.runOrDefer(() => log.push('timer'));
    expect(log).toEqual(['snapshot']);
    releaseSnapshot();
    await drained;
    await work.drain();
    expect(log).toEqual(['snapshot', 'barrier', 'timer']);
  });
});
