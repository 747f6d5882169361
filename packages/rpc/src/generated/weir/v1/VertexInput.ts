// Original file: proto/weir/v1/job_service.proto


export interface VertexInput {
  'sourceVertexId'?: (string);
  'partitioner'?: (string);
}

export interface VertexInput__Output {
  'sourceVertexId': (string);
  'partitioner': (string);
}
