// Original file: proto/weir/v1/task_manager_service.proto

import type { TaskKey as _weir_v1_TaskKey, TaskKey__Output as _weir_v1_TaskKey__Output } from '../../weir/v1/TaskKey.ts';
import type { OperatorMetrics as _weir_v1_OperatorMetrics, OperatorMetrics__Output as _weir_v1_OperatorMetrics__Output } from '../../weir/v1/OperatorMetrics.ts';

export interface SubtaskMetrics {
  'task'?: (_weir_v1_TaskKey | null);
  'numRecordsIn'?: (number | string);
  'numRecordsOut'?: (number | string);
  'numBytesIn'?: (number | string);
  'numBytesOut'?: (number | string);
  'numRecordsInPerSecond'?: (number | string);
  'numRecordsOutPerSecond'?: (number | string);
  'numBytesInPerSecond'?: (number | string);
  'numBytesOutPerSecond'?: (number | string);
  'busyTimeMsPerSecond'?: (number | string);
  'backPressuredTimeMsPerSecond'?: (number | string);
  'idleTimeMsPerSecond'?: (number | string);
  'accumulatedBusyTimeMs'?: (number | string);
  'accumulatedBackPressuredTimeMs'?: (number | string);
  'accumulatedIdleTimeMs'?: (number | string);
  'inputQueueLength'?: (number | string);
  'outputQueueLength'?: (number | string);
  'inPoolUsage'?: (number | string);
  'outPoolUsage'?: (number | string);
  'currentInputWatermark'?: (number | string);
  'operators'?: (_weir_v1_OperatorMetrics)[];
}

export interface SubtaskMetrics__Output {
  'task': (_weir_v1_TaskKey__Output | null);
  'numRecordsIn': (number);
  'numRecordsOut': (number);
  'numBytesIn': (number);
  'numBytesOut': (number);
  'numRecordsInPerSecond': (number);
  'numRecordsOutPerSecond': (number);
  'numBytesInPerSecond': (number);
  'numBytesOutPerSecond': (number);
  'busyTimeMsPerSecond': (number);
  'backPressuredTimeMsPerSecond': (number);
  'idleTimeMsPerSecond': (number);
  'accumulatedBusyTimeMs': (number);
  'accumulatedBackPressuredTimeMs': (number);
  'accumulatedIdleTimeMs': (number);
  'inputQueueLength': (number);
  'outputQueueLength': (number);
  'inPoolUsage': (number);
  'outPoolUsage': (number);
  'currentInputWatermark': (number);
  'operators': (_weir_v1_OperatorMetrics__Output)[];
}
