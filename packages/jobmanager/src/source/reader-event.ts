import { decodeSourceEvent, parseReaderEvent as parseEvent } from '@weir/common';
import type { OperatorEvent__Output } from '@weir/rpc';
import type { ReaderEventMessage } from './source-coordinators.ts';

/** The reader event in `message` from TaskManager `taskManagerId`; a string says why it is none. */
export function parseReaderEvent(taskManagerId: string, message: OperatorEvent__Output): ReaderEventMessage | string {
  const task = message.task;
  if (task === null || task.jobId === '' || task.vertexId === '') return 'it names no task';
  if (message.operatorId === '') return 'it names no operator';
  const event = decodeSourceEvent(message.event, parseEvent);
  if (typeof event === 'string') return event;
  return { taskManagerId, jobId: task.jobId, attempt: task.attempt, vertexId: task.vertexId, subtaskIndex: task.subtaskIndex, operatorId: message.operatorId, event };
}
