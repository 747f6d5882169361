// Original file: proto/weir/v1/data_exchange.proto


export interface Credit {
  'buffers'?: (number);
}

export interface Credit__Output {
  'buffers': (number);
}
