// Original file: proto/weir/v1/data_exchange.proto


export interface EndOfPartition {
}

export interface EndOfPartition__Output {
}
