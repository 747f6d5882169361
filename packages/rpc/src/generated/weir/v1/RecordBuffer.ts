// Original file: proto/weir/v1/data_exchange.proto


export interface RecordBuffer {
  'payload'?: (Buffer | Uint8Array | string);
  'recordCount'?: (number);
}

export interface RecordBuffer__Output {
  'payload': (Buffer);
  'recordCount': (number);
}
