import { describe, expect, it } from 'vitest';
import { captureContext } from '../testing/capture-context.ts';
import { Progress } from './progress.ts';

describe('Progress', () => {
  it('prints the start line, then the elapsed time every 5 s naming what it waits for, on stderr only', () => {
    const context = captureContext();
    const progress = Progress.start(context, 'Suspending job j with a savepoint…', 'the savepoint of job j');
    context.clock.advance(4_999);
    expect(context.stderr).toEqual(['Suspending job j with a savepoint…']);
    context.clock.advance(1);
    progress.waitingFor('job j to finish');
    context.clock.advance(5_000);
    expect(context.stderr).toEqual([
      'Suspending job j with a savepoint…',
      'Still waiting for the savepoint of job j: 5 s elapsed',
      'Still waiting for job j to finish: 10 s elapsed',
    ]);
    expect(context.stdout).toEqual([]);
  });

  it('prints nothing more once stopped', () => {
    const context = captureContext();
    const progress = Progress.start(context, 'Triggering savepoint for job j…', 'the savepoint of job j');
    context.clock.advance(5_000);
    progress.stop();
    context.clock.advance(60_000);
    expect(context.stderr).toEqual(['Triggering savepoint for job j…', 'Still waiting for the savepoint of job j: 5 s elapsed']);
  });
});
