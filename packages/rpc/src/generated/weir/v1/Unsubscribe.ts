// Original file: proto/weir/v1/data_exchange.proto


export interface Unsubscribe {
}

export interface Unsubscribe__Output {
}
