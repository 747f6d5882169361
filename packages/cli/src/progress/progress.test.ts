import { describe, expect, it } from 'vitest';
import { captureContext } from '../testing/capture-context.ts';
import { Progress } from './progress.ts';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Progress', () => {
  it('on a terminal, keeps a status line with what it waits for, the elapsed time and the details, and removes it when stopped', async () => {
    const context = captureContext({}, { interactive: true });
    let acks = 1;
    const progress = Progress.start(context, 'Suspending job j with a savepoint…', 'the savepoint of job j', async () => `savepoint 3: ${acks}/4 acks`);
    expect(context.stderr).toEqual(['Suspending job j with a savepoint…']);
    await settle();
    context.clock.advance(250);
    expect(context.statuses.at(-1)).toBe('⠙ Waiting for the savepoint of job j · 0.3 s · savepoint 3: 1/4 acks');
    acks = 4;
    context.clock.advance(250);
    await settle();
    context.clock.advance(250);
    expect(context.statuses.at(-1)).toBe('⠸ Waiting for the savepoint of job j · 0.8 s · savepoint 3: 4/4 acks');
    progress.waitingFor('job j to finish');
    context.clock.advance(250);
    expect(context.statuses.at(-1)).toBe('⠼ Waiting for job j to finish · 1.0 s');
    progress.stop();
    expect(context.statuses.at(-1)).toBeUndefined();
    const shown = context.statuses.length;
    context.clock.advance(10_000);
    expect(context.statuses).toHaveLength(shown);
    expect(context.stdout).toEqual([]);
  });

  it('off a terminal, prints the start line and nothing more', async () => {
    const context = captureContext();
    const progress = Progress.start(context, 'Triggering savepoint for job j…', 'the savepoint of job j', async () => 'detail');
    context.clock.advance(60_000);
    await settle();
    progress.stop();
    expect(context.stderr).toEqual(['Triggering savepoint for job j…']);
    expect(context.statuses).toEqual([]);
  });
});
