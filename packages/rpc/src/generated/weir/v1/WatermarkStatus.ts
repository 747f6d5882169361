// Original file: proto/weir/v1/data_exchange.proto


export interface WatermarkStatus {
  'idle'?: (boolean);
}

export interface WatermarkStatus__Output {
  'idle': (boolean);
}
