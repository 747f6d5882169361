import type { Addressed, AwaitingFinalCheckpoint, CheckpointAck, CheckpointDecline, CheckpointNotification, CheckpointTrigger, RestoreShare, TaskStateSnapshot } from '@weir/common';
import { describe, expect, it } from 'vitest';
import type { TaskRestore__Output } from '../generated/weir/v1/TaskRestore.ts';
import { toJobManager, toTaskManager } from '../testing/over-the-wire.ts';
import {
  decodeAck,
  decodeAwaitingFinalCheckpoint,
  decodeDecline,
  decodeNotification,
  decodeRestoreShare,
  decodeTrigger,
  encodeAck,
  encodeAwaitingFinalCheckpoint,
  encodeDecline,
  encodeNotification,
  encodeRestoreShare,
  encodeTrigger,
} from './checkpoint-codec.ts';

/** A TaskRestore travels inside DeployTask. */
const restoreOverTheWire = (restore: ReturnType<typeof encodeRestoreShare>): TaskRestore__Output =>
  toTaskManager({ deploy: { task: TASK, restore } }).deploy!.restore!;

const TASK = { jobId: 'f'.repeat(32), attempt: 3, vertexId: 'v-1', subtaskIndex: 2 };

/** One of each kind of state handle. */
const STATE: TaskStateSnapshot = {
  operators: {
    'op-1': {
      keyed: [
        { backend: 'heap', keyGroupRange: { start: 0, end: 63 }, offsets: [0, 10], handle: { kind: 'file', path: 'op-1-0-keyed', size: 20 }, states: { sum: { kind: 'value', type: { name: 'NUMBER' } } } },
        {
          backend: 'level',
          keyGroupRange: { start: 64, end: 127 },
          files: [
            { name: 'CURRENT', location: 'private', path: 'op-1-0-level/CURRENT', size: 16 },
            { name: '000012.ldb', location: 'shared', path: 'shared/op-1-0-abc-000012.ldb', size: 4096 },
          ],
          states: { seen: { kind: 'map', type: { name: 'BOOLEAN' }, keyType: { name: 'STRING' } } },
        },
      ],
      operator: [{ handle: { kind: 'inline', data: 'AAE=', size: 2 }, states: { '$source-reader': { mode: 'split' }, all: { mode: 'union' } } }],
      channel: { handle: { kind: 'file', path: 'op-1-2-channel', size: 30 }, channels: [{ direction: 'input', vertexId: 'v-0', subtask: 1, buffers: [[0, 30, 4]] }] },
    },
    'op-2': {},
  },
};

describe('the checkpoint messages of the control stream', () => {
  it('carries a plain trigger without options, and a stop-with-savepoint trigger with them', () => {
    const plain: Addressed<CheckpointTrigger> = { task: TASK, checkpointId: 7, timestamp: 1_700_000_000_123, options: { type: 'checkpoint' } };
    const sent = toTaskManager({ triggerCheckpoint: encodeTrigger(plain) }).triggerCheckpoint!;
    expect(sent.options).toBeNull();
    expect(decodeTrigger(sent)).toEqual(plain);
    const stop: Addressed<CheckpointTrigger> = { ...plain, checkpointId: 8, options: { type: 'savepoint', terminate: 'drain', targetLocation: 's3://b/sp-1' } };
    expect(decodeTrigger(toTaskManager({ triggerCheckpoint: encodeTrigger(stop) }).triggerCheckpoint!)).toEqual(stop);
  });

  it('carries completed and aborted notifications', () => {
    for (const completed of [true, false]) {
      const notification: Addressed<CheckpointNotification> = { task: TASK, checkpointId: 12, completed };
      expect(decodeNotification(toTaskManager({ notifyCheckpoint: encodeNotification(notification) }).notifyCheckpoint!)).toEqual(notification);
    }
  });

  it('carries an acknowledgement with every kind of state handle, its figures in whole milliseconds', () => {
    const ack: Addressed<CheckpointAck> = {
      task: TASK,
      checkpointId: 9,
      state: STATE,
      metrics: { syncMs: 1.4, asyncMs: 20.6, alignmentMs: 0, stateBytes: 5_000_000_000, checkpointedBytes: 7_000, unaligned: true, persistedBytes: 30 },
    };
    expect(decodeAck(toJobManager({ acknowledgeCheckpoint: encodeAck(ack) }).acknowledgeCheckpoint!)).toEqual({
      ...ack,
      metrics: { ...ack.metrics, syncMs: 1, asyncMs: 21 },
    });
  });

  it('reads an acknowledgement without state or figures as empty, and one with broken state as a decline', () => {
    const bare = toJobManager({ acknowledgeCheckpoint: { task: TASK, checkpointId: 4 } }).acknowledgeCheckpoint!;
    expect(decodeAck(bare)).toEqual({
      task: TASK,
      checkpointId: 4,
      state: { operators: {} },
      metrics: { syncMs: 0, asyncMs: 0, alignmentMs: 0, stateBytes: 0, checkpointedBytes: 0, unaligned: false, persistedBytes: 0 },
    });
    const broken = (state: string) => decodeAck(toJobManager({ acknowledgeCheckpoint: { task: TASK, checkpointId: 4, state: Buffer.from(state) } }).acknowledgeCheckpoint!);
    expect(broken('{"operators":')).toEqual({
      task: TASK,
      checkpointId: 4,
      reason: 'CHECKPOINT_DECLINED',
      message: expect.stringMatching(/^its acknowledgement carried no valid state: not JSON \(/),
    });
    expect(broken('{"operators":{"op-1":{"keyed":[{"backend":"rocks"}]}}}')).toMatchObject({
      message: 'its acknowledgement carried no valid state: not a TaskStateSnapshot: operator op-1: keyed state: a handle lacks its state descriptions',
    });
    expect(broken('{"operators":{"op-1":{"operator":[{"handle":{"kind":"file","path":"../../etc/passwd","size":1},"states":{}}]}}}')).toMatchObject({
      message: 'its acknowledgement carried no valid state: not a TaskStateSnapshot: operator op-1: operator state: a handle lacks its bytes or list names',
    });
  });

  it('carries a decline, keeping an unknown reason code in the message', () => {
    const decline: Addressed<CheckpointDecline> = { task: TASK, checkpointId: 5, reason: 'CHECKPOINT_STATE_TOO_LARGE', message: 'keyed state is 6 MB, over the limit of 5 MB' };
    expect(decodeDecline(toJobManager({ declineCheckpoint: encodeDecline(decline) }).declineCheckpoint!)).toEqual(decline);
    const newer = toJobManager({ declineCheckpoint: { task: TASK, checkpointId: 5, reasonCode: 'CHECKPOINT_FROM_THE_FUTURE', message: 'no' } }).declineCheckpoint!;
    expect(decodeDecline(newer)).toEqual({ task: TASK, checkpointId: 5, reason: 'CHECKPOINT_DECLINED', message: 'no [CHECKPOINT_FROM_THE_FUTURE]' });
  });

  it('carries that a task awaits its final checkpoint, with the last checkpoint it took before its end (0 for none)', () => {
    for (const lastCheckpointBeforeEnd of [0, 41]) {
      const awaiting: Addressed<AwaitingFinalCheckpoint> = { task: TASK, lastCheckpointBeforeEnd };
      expect(decodeAwaitingFinalCheckpoint(toJobManager({ awaitingFinalCheckpoint: encodeAwaitingFinalCheckpoint(awaiting) }).awaitingFinalCheckpoint!)).toEqual(awaiting);
    }
    expect(decodeAwaitingFinalCheckpoint(toJobManager({ awaitingFinalCheckpoint: { lastCheckpointBeforeEnd: 3 } }).awaitingFinalCheckpoint!)).toBe('the report of an ended input names no task');
    const huge = toJobManager({ awaitingFinalCheckpoint: { task: TASK, lastCheckpointBeforeEnd: '18446744073709551615' } }).awaitingFinalCheckpoint!;
    expect(decodeAwaitingFinalCheckpoint(huge)).toMatch(/ is not a non-negative integer$/);
  });

  it('carries a task restore share inside DeployTask, and says what is wrong with broken state', () => {
    const share: RestoreShare = { checkpointId: 11, state: STATE, checkpointPath: 'file:///data/cp/job/chk-11' };
    expect(decodeRestoreShare(restoreOverTheWire(encodeRestoreShare(share)))).toEqual(share);
    expect(decodeRestoreShare(restoreOverTheWire({ checkpointId: 11, state: Buffer.from('[]'), checkpointPath: '' }))).toBe('not an object with an "operators" object');
  });

  it('refuses messages that name no task or no valid checkpoint ID', () => {
    expect(decodeDecline(toJobManager({ declineCheckpoint: { checkpointId: 5, reasonCode: '', message: 'x' } }).declineCheckpoint!)).toBe('the checkpoint decline names no task');
    expect(decodeAck(toJobManager({ acknowledgeCheckpoint: { task: TASK, checkpointId: 0 } }).acknowledgeCheckpoint!)).toBe('checkpoint ID 0 is not a positive integer');
    expect(decodeTrigger(toTaskManager({ triggerCheckpoint: { checkpointId: 3 } }).triggerCheckpoint!)).toBe('the checkpoint trigger names no task');
    expect(decodeNotification(toTaskManager({ notifyCheckpoint: { task: TASK } }).notifyCheckpoint!)).toBe('checkpoint ID 0 is not a positive integer');
  });
});
