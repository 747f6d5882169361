// Original file: proto/weir/v1/job_service.proto


export interface SubmitJobRequest {
  'bundle'?: (Buffer | Uint8Array | string);
  'entryName'?: (string);
  'args'?: (string)[];
  'parallelism'?: (number);
  'savepointPath'?: (string);
  'allowNonRestoredState'?: (boolean);
  'configuration'?: ({[key: string]: string});
}

export interface SubmitJobRequest__Output {
  'bundle': (Buffer);
  'entryName': (string);
  'args': (string)[];
  'parallelism': (number);
  'savepointPath': (string);
  'allowNonRestoredState': (boolean);
  'configuration': ({[key: string]: string});
}
