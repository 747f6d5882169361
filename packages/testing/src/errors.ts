/** Codes of the WeirErrors that @weir/testing throws. */
export const TestingErrorCode = {
  /** A CollectSink name is empty or has characters other than letters, digits, `-` and `_`. */
  INVALID_COLLECT_NAME: 'INVALID_COLLECT_NAME',
  /** A CollectSink ran in a process that no MiniCluster started (MINICLUSTER_COLLECT_DIR is unset). */
  NOT_IN_MINI_CLUSTER: 'NOT_IN_MINI_CLUSTER',
  /** A timestamped collection element is neither `{ value, timestamp }` nor `{ watermark }`. */
  INVALID_ELEMENT: 'INVALID_ELEMENT',
  /** A MiniCluster method was called before `start()` or after `close()`. */
  CLUSTER_NOT_RUNNING: 'CLUSTER_NOT_RUNNING',
  /** A job run by `MiniCluster.execute` ended FAILED or CANCELED while the test waited for it to finish. */
  JOB_FAILED: 'JOB_FAILED',
  /** A TaskManager index is not one of the cluster's (1..taskManagers). */
  NO_SUCH_TASKMANAGER: 'NO_SUCH_TASKMANAGER',
  /** The harness was asked for something its operator does not have (keyed state of a non-keyed operator). */
  HARNESS_MISUSE: 'HARNESS_MISUSE',
  /** A job ID that this MiniCluster did not run. */
  NO_SUCH_JOB: 'NO_SUCH_JOB',
  /** `failTask`: the job has no running subtask with that vertex name and index. */
  NO_SUCH_TASK: 'NO_SUCH_TASK',
  /** The failure `failTask` injects into a task: the cause the job's failover shows. */
  TASK_FAILED_BY_TEST: 'TASK_FAILED_BY_TEST',
  /** A checkpoint a test asked for was declined, or the job failed or ended before it completed. */
  CHECKPOINT_FAILED: 'CHECKPOINT_FAILED',
  /** A MiniCluster call that its mode cannot do (a job function in the processes mode; killTaskManager in-process). */
  MODE_UNSUPPORTED: 'MODE_UNSUPPORTED',
  /** Two in-process MiniClusters at once in one process: CollectSink finds its directory through the process's environment. */
  IN_PROCESS_CLUSTER_RUNNING: 'IN_PROCESS_CLUSTER_RUNNING',
} as const;
