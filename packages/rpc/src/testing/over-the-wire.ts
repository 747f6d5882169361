import type { JobManagerMessage, JobManagerMessage__Output } from '../generated/weir/v1/JobManagerMessage.ts';
import type { TaskManagerMessage, TaskManagerMessage__Output } from '../generated/weir/v1/TaskManagerMessage.ts';
import { services } from '../proto.ts';

/*
 * The Connect stream's own serialization, both ways, as between processes: what a codec test
 * sends through before it decodes (the codecs' README, "Adding a control message").
 */

const connect = services.TaskManagerService.Connect;

/** What the JobManager's handler receives when a TaskManager sends `message`. */
export function toJobManager(message: TaskManagerMessage): TaskManagerMessage__Output {
  return connect.requestDeserialize(connect.requestSerialize(message)) as TaskManagerMessage__Output;
}

/** What the TaskManager receives when the JobManager sends `message`. */
export function toTaskManager(message: JobManagerMessage): JobManagerMessage__Output {
  return connect.responseDeserialize(connect.responseSerialize(message)) as JobManagerMessage__Output;
}
