// Original file: proto/weir/v1/job_service.proto


export interface DisposeSavepointResponse {
}

export interface DisposeSavepointResponse__Output {
}
