import { decodeReaderEvent, type OperatorEvent__Output } from '@weir/rpc';
import type { ReaderEventMessage } from './source-coordinators.ts';

/** The reader event in `message` from TaskManager `taskManagerId`; a string says why it is none. */
export function parseReaderEvent(taskManagerId: string, message: OperatorEvent__Output): ReaderEventMessage | string {
  const decoded = decodeReaderEvent(message);
  if (typeof decoded === 'string') return decoded;
  const { task, operatorId, event } = decoded;
  return { taskManagerId, jobId: task.jobId, attempt: task.attempt, vertexId: task.vertexId, subtaskIndex: task.subtaskIndex, operatorId, event };
}
