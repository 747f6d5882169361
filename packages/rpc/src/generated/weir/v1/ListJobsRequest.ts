// Original file: proto/weir/v1/job_service.proto


export interface ListJobsRequest {
}

export interface ListJobsRequest__Output {
}
