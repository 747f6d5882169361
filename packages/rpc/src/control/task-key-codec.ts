import type { SubtaskKey } from '@weir/common';
import type { TaskKey, TaskKey__Output } from '../generated/weir/v1/TaskKey.ts';

/** The subtask a control message is about, between the proto's TaskKey and @weir/common's SubtaskKey: used by every control codec. */
export function encodeTaskKey(key: SubtaskKey): TaskKey {
  return { jobId: key.jobId, attempt: key.attempt, vertexId: key.vertexId, subtaskIndex: key.subtaskIndex };
}

export function decodeTaskKey(key: TaskKey__Output): SubtaskKey {
  return { jobId: key.jobId, attempt: key.attempt, vertexId: key.vertexId, subtaskIndex: key.subtaskIndex };
}
