// Original file: proto/weir/v1/job_service.proto

import type { Long } from '@grpc/proto-loader';

export interface FailoverInfo {
  'attempt'?: (number);
  'timeMs'?: (number | string | Long);
  'code'?: (string);
  'cause'?: (string);
  'restarted'?: (boolean);
  'restartDelayMs'?: (number | string | Long);
}

export interface FailoverInfo__Output {
  'attempt': (number);
  'timeMs': (number);
  'code': (string);
  'cause': (string);
  'restarted': (boolean);
  'restartDelayMs': (number);
}
