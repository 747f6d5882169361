import type { Addressed, EnumeratorEvent, ReaderEvent, SourceOperatorEvent } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { toJobManager, toTaskManager } from '../testing/over-the-wire.ts';
import { decodeEnumeratorEvent, decodeReaderEvent, encodeEnumeratorEvent, encodeReaderEvent } from './operator-event-codec.ts';

const TASK = { jobId: 'f'.repeat(32), attempt: 1, vertexId: 'v-src', subtaskIndex: 2 };

describe('the split source events of the control stream', () => {
  it('carries reader events to the JobManager and enumerator events, splits and all, to the task', () => {
    for (const event of [{ kind: 'reader-registered' }, { kind: 'split-request' }] as const) {
      const message: Addressed<SourceOperatorEvent<ReaderEvent>> = { task: TASK, operatorId: 'op-1', event };
      expect(decodeReaderEvent(toJobManager({ operatorEvent: encodeReaderEvent(message) }).operatorEvent!)).toEqual(message);
    }
    const splits = [{ splitId: 'p-0', topic: 'events', partition: 0, offset: 12n }, { splitId: 'p-1', range: [0, 100] }];
    for (const event of [{ kind: 'add-splits', splits }, { kind: 'no-more-splits' }] as const) {
      const message: Addressed<SourceOperatorEvent<EnumeratorEvent>> = { task: TASK, operatorId: 'op-1', event };
      expect(decodeEnumeratorEvent(toTaskManager({ operatorEvent: encodeEnumeratorEvent(message) }).operatorEvent!)).toEqual(message);
    }
  });

  it('refuses events that name no task or operator, or are no such event', () => {
    const reader = encodeReaderEvent({ task: TASK, operatorId: 'op-1', event: { kind: 'split-request' } });
    expect(decodeReaderEvent(toJobManager({ operatorEvent: { ...reader, task: null } }).operatorEvent!)).toBe('it names no task');
    expect(decodeReaderEvent(toJobManager({ operatorEvent: { ...reader, operatorId: '' } }).operatorEvent!)).toBe('it names no operator');
    expect(decodeEnumeratorEvent(toTaskManager({ operatorEvent: reader }).operatorEvent!)).toBe('not an enumerator event: {"kind":"split-request"}');
    expect(decodeReaderEvent(toJobManager({ operatorEvent: { ...reader, event: Buffer.from([0xc1]) } }).operatorEvent!)).toMatch(/^not a reader event: /);
  });
});
