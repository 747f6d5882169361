import type { CheckpointOptions } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { Running, type EndOfInputActions, type EndOfInputPhase } from './end-of-input.ts';

function actions(isSource: boolean): EndOfInputActions & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    isSource,
    checkpointNow: (t) => log.push(`checkpoint ${t.checkpointId}`),
    declineNotReady: (id, why) => log.push(`decline ${id}: ${why}`),
    endSourceInput: () => log.push('end input'),
    suspendSource: () => log.push('suspend'),
    awaitFinalCheckpoint: () => log.push('awaiting final checkpoint'),
  };
}

const CHECKPOINT: CheckpointOptions = { type: 'checkpoint' };
const trigger = (checkpointId: number, options: CheckpointOptions = CHECKPOINT) => ({ checkpointId, timestamp: checkpointId * 10, options });

describe('the end-of-input phases of a task', () => {
  it('a source takes triggers while it runs, and finishes once a checkpoint taken after its end completed', () => {
    const a = actions(true);
    let phase: EndOfInputPhase = new Running(true).trigger(trigger(1), a);
    phase = phase.snapshotTaken(1).inputEnded(a);
    expect(phase.name).toBe('awaiting-final-checkpoint');
    // Checkpoint 1 was taken before the end: completing it ends nothing.
    phase = phase.checkpointCompleted(1).trigger(trigger(2), a).snapshotTaken(2).trigger(trigger(3), a).snapshotTaken(3);
    expect(phase.mayFinish).toBe(false);
    phase = phase.checkpointCompleted(3);
    expect([phase.name, phase.mayFinish]).toEqual(['final-checkpoint-done', true]);
    phase = phase.finishing().trigger(trigger(4), a);
    expect(a.log).toEqual(['checkpoint 1', 'awaiting final checkpoint', 'checkpoint 2', 'checkpoint 3', 'decline 4: it has finished']);
  });

  it('stop-with-savepoint: suspend takes the savepoint then ends the input; drain ends the input and takes it after', () => {
    const suspend = actions(true);
    new Running(true).trigger(trigger(5, { type: 'savepoint', terminate: 'suspend', targetLocation: '/sp' }), suspend);
    expect(suspend.log).toEqual(['checkpoint 5', 'suspend']);

    const drain = actions(true);
    let phase = new Running(true).trigger(trigger(6, { type: 'savepoint', terminate: 'drain', targetLocation: '/sp' }), drain);
    expect([phase.name, drain.log]).toEqual(['draining', ['end input']]);
    phase = phase.trigger(trigger(7), drain).inputEnded(drain);
    expect(drain.log).toEqual(['end input', 'checkpoint 7', 'checkpoint 6', 'awaiting final checkpoint']);
    // The drained savepoint is the first snapshot after the end: the final checkpoint.
    phase = phase.snapshotTaken(6).checkpointCompleted(6);
    expect(phase.mayFinish).toBe(true);
  });

  it('a task with network inputs takes checkpoints from triggers only after its input ended, and never a savepoint', () => {
    const a = actions(false);
    let phase: EndOfInputPhase = new Running(true).trigger(trigger(1), a);
    phase = phase.inputEnded(a).trigger(trigger(2), a).trigger(trigger(3, { type: 'savepoint', targetLocation: '/sp' }), a);
    expect(a.log).toEqual([
      'decline 1: its input has not ended (tasks with running producers take checkpoints when their barriers arrive)',
      'awaiting final checkpoint',
      'checkpoint 2',
      'decline 3: its input ended, and a savepoint needs every task running',
    ]);
    expect(phase.mayFinish).toBe(false);
  });

  it('without checkpointing needs no final checkpoint, and tells nobody it waits for one', () => {
    const a = actions(true);
    expect(new Running(false).inputEnded(a).mayFinish).toBe(true);
    expect(a.log).toEqual([]);
  });
});
