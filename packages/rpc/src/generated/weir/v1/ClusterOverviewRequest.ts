// Original file: proto/weir/v1/job_service.proto


export interface ClusterOverviewRequest {
}

export interface ClusterOverviewRequest__Output {
}
