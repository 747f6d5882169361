import { describe, expect, it } from 'vitest';
import { Deploying, type LifecycleState } from './lifecycle.ts';

type Event = 'start' | 'initialized' | 'finished' | 'failed' | 'cancelRequested' | 'cleanedUp';

function walk(...events: Event[]): string[] {
  let state: LifecycleState = new Deploying();
  return events.map((event) => (state = state[event]()).state);
}

describe('task lifecycle', () => {
  it('runs DEPLOYING -> INITIALIZING -> RUNNING -> FINISHED', () => {
    expect(walk('start', 'initialized', 'finished')).toEqual(['INITIALIZING', 'RUNNING', 'FINISHED']);
  });

  it('fails from any live state and stays failed', () => {
    expect(walk('failed', 'start')).toEqual(['FAILED', 'FAILED']);
    expect(walk('start', 'failed', 'cancelRequested')).toEqual(['INITIALIZING', 'FAILED', 'FAILED']);
    expect(walk('start', 'initialized', 'failed', 'finished')).toEqual(['INITIALIZING', 'RUNNING', 'FAILED', 'FAILED']);
  });

  it('cancels at once before start, and through CANCELING after it, whatever the run ends with', () => {
    expect(walk('cancelRequested', 'start')).toEqual(['CANCELED', 'CANCELED']);
    expect(walk('start', 'cancelRequested', 'initialized', 'cleanedUp')).toEqual(['INITIALIZING', 'CANCELING', 'CANCELING', 'CANCELED']);
    expect(walk('start', 'initialized', 'cancelRequested', 'failed')).toEqual(['INITIALIZING', 'RUNNING', 'CANCELING', 'CANCELED']);
    expect(walk('start', 'initialized', 'cancelRequested', 'finished')).toEqual(['INITIALIZING', 'RUNNING', 'CANCELING', 'CANCELED']);
    expect(walk('start', 'initialized', 'finished', 'cancelRequested')).toEqual(['INITIALIZING', 'RUNNING', 'FINISHED', 'FINISHED']);
  });
});
