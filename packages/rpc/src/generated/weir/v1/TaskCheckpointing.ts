// Original file: proto/weir/v1/task_manager_service.proto

import type { Long } from '@grpc/proto-loader';

export interface TaskCheckpointing {
  'mode'?: (string);
  'backend'?: (string);
  'checkpointDir'?: (string);
  'maxInlineBytes'?: (number | string | Long);
  'asyncSnapshots'?: (boolean);
  'incremental'?: (boolean);
  'unaligned'?: (boolean);
  'alignedCheckpointTimeoutMs'?: (number);
  'changelogEnabled'?: (boolean);
  'changelogMaterializeIntervalMs'?: (number);
}

export interface TaskCheckpointing__Output {
  'mode': (string);
  'backend': (string);
  'checkpointDir': (string);
  'maxInlineBytes': (number);
  'asyncSnapshots': (boolean);
  'incremental': (boolean);
  'unaligned': (boolean);
  'alignedCheckpointTimeoutMs': (number);
  'changelogEnabled': (boolean);
  'changelogMaterializeIntervalMs': (number);
}
