// Original file: proto/weir/v1/job_service.proto


export interface ClusterOverview {
  'taskManagers'?: (number);
  'slotsTotal'?: (number);
  'slotsFree'?: (number);
}

export interface ClusterOverview__Output {
  'taskManagers': (number);
  'slotsTotal': (number);
  'slotsFree': (number);
}
