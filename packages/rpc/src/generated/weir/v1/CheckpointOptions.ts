// Original file: proto/weir/v1/common.proto


export interface CheckpointOptions {
  'type'?: (string);
  'terminate'?: (string);
  'targetLocation'?: (string);
  'full'?: (boolean);
}

export interface CheckpointOptions__Output {
  'type': (string);
  'terminate': (string);
  'targetLocation': (string);
  'full': (boolean);
}
