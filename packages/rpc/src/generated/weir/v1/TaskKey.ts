// Original file: proto/weir/v1/common.proto


export interface TaskKey {
  'jobId'?: (string);
  'attempt'?: (number);
  'vertexId'?: (string);
  'subtaskIndex'?: (number);
}

export interface TaskKey__Output {
  'jobId': (string);
  'attempt': (number);
  'vertexId': (string);
  'subtaskIndex': (number);
}
