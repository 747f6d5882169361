/** Error codes of @weir/taskmanager. */
export const TaskManagerErrorCode = {
  /** A task's job bundle could not be fetched from the JobManager, or the bytes fetched do not have the SHA-256 the deploy named. */
  BUNDLE_FETCH_FAILED: 'BUNDLE_FETCH_FAILED',
  /** A deploy message lacks its task key or job defaults, so the task cannot be identified or its graph rebuilt. */
  INVALID_DEPLOYMENT: 'INVALID_DEPLOYMENT',
  /** The control stream to the JobManager could not be opened, broke, or heard no heartbeat for heartbeat.timeout. */
  JOBMANAGER_UNREACHABLE: 'JOBMANAGER_UNREACHABLE',
  /** The JobManager answered `register` with something other than `registered`. */
  CONTROL_PROTOCOL_VIOLATION: 'CONTROL_PROTOCOL_VIOLATION',
  /** A DataExchange consumer sent something other than one `subscribe` followed by `credit` messages. */
  SUBSCRIBE_PROTOCOL_VIOLATION: 'SUBSCRIBE_PROTOCOL_VIOLATION',
  /** A producer's DataExchange stream ended cleanly before it sent end-of-partition. */
  PRODUCER_STREAM_ENDED: 'PRODUCER_STREAM_ENDED',
} as const;
export type TaskManagerErrorCode = (typeof TaskManagerErrorCode)[keyof typeof TaskManagerErrorCode];
