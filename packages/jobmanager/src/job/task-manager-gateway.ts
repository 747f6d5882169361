import type { JobManagerMessage } from '@weir/rpc';

/** How a job reaches the TaskManagers its tasks run on. */
export interface TaskManagerGateway {
  /** Sends on the TaskManager's control stream; false when no TaskManager with that ID is connected. */
  send(taskManagerId: string, message: JobManagerMessage): boolean;
}
