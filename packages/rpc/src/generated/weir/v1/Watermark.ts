// Original file: proto/weir/v1/data_exchange.proto


export interface Watermark {
  'timestamp'?: (number | string);
}

export interface Watermark__Output {
  'timestamp': (number);
}
