// Original file: proto/weir/v1/task_manager_service.proto

import type { Long } from '@grpc/proto-loader';

export interface RegisterTaskManager {
  'taskManagerId'?: (string);
  'dataAddress'?: (string);
  'slots'?: (number);
  'pid'?: (number);
  'livenessAddress'?: (string);
  'leaderEpoch'?: (number | string | Long);
}

export interface RegisterTaskManager__Output {
  'taskManagerId': (string);
  'dataAddress': (string);
  'slots': (number);
  'pid': (number);
  'livenessAddress': (string);
  'leaderEpoch': (number);
}
