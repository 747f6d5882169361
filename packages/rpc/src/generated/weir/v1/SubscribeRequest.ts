// Original file: proto/weir/v1/data_exchange.proto


export interface SubscribeRequest {
  'jobId'?: (string);
  'attempt'?: (number);
  'producerVertexId'?: (string);
  'producerSubtask'?: (number);
  'consumerVertexId'?: (string);
  'consumerSubtask'?: (number);
  'initialCredit'?: (number);
  'consumerDataAddress'?: (string);
  'consumerInput'?: (number);
}

export interface SubscribeRequest__Output {
  'jobId': (string);
  'attempt': (number);
  'producerVertexId': (string);
  'producerSubtask': (number);
  'consumerVertexId': (string);
  'consumerSubtask': (number);
  'initialCredit': (number);
  'consumerDataAddress': (string);
  'consumerInput': (number);
}
