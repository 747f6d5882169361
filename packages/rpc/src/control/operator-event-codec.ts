import {
  decodeSourceEvent,
  encodeSourceEvent,
  parseEnumeratorEvent,
  parseReaderEvent,
  type Addressed,
  type EnumeratorEvent,
  type ReaderEvent,
  type SourceOperatorEvent,
} from '@weir/common';
import type { OperatorEvent, OperatorEvent__Output } from '../generated/weir/v1/OperatorEvent.ts';
import { decodeTaskKey, encodeTaskKey } from './task-key-codec.ts';

/**
 * The control stream's OperatorEvent, both ways (Flink's FLIP-27 operator events): reader →
 * enumerator from a task, enumerator → reader from the JobManager. The event itself travels
 * as MessagePack (@weir/common's `source-events.ts`); a decoder returns a string when the
 * message names no task or operator, or its bytes are no such event.
 */

export function encodeReaderEvent(message: Addressed<SourceOperatorEvent<ReaderEvent>>): OperatorEvent {
  return { task: encodeTaskKey(message.task), operatorId: message.operatorId, event: encodeSourceEvent(message.event) };
}

export function decodeReaderEvent(message: OperatorEvent__Output): Addressed<SourceOperatorEvent<ReaderEvent>> | string {
  return decode(message, parseReaderEvent);
}

export function encodeEnumeratorEvent(message: Addressed<SourceOperatorEvent<EnumeratorEvent>>): OperatorEvent {
  return { task: encodeTaskKey(message.task), operatorId: message.operatorId, event: encodeSourceEvent(message.event) };
}

export function decodeEnumeratorEvent(message: OperatorEvent__Output): Addressed<SourceOperatorEvent<EnumeratorEvent>> | string {
  return decode(message, parseEnumeratorEvent);
}

function decode<E>(message: OperatorEvent__Output, parse: (value: unknown) => E | string): Addressed<SourceOperatorEvent<E>> | string {
  const task = message.task;
  if (task === null || task.jobId === '' || task.vertexId === '') return 'it names no task';
  if (message.operatorId === '') return 'it names no operator';
  const event = decodeSourceEvent(message.event, parse);
  if (typeof event === 'string') return event;
  return { task: decodeTaskKey(task), operatorId: message.operatorId, event };
}
