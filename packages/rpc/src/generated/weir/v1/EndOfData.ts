// Original file: proto/weir/v1/data_exchange.proto


export interface EndOfData {
}

export interface EndOfData__Output {
}
