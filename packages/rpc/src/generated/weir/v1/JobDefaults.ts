// Original file: proto/weir/v1/task_manager_service.proto


export interface JobDefaults {
  'parallelism'?: (number);
  'maxParallelism'?: (number);
  'bufferTimeoutMs'?: (number);
  'autoWatermarkIntervalMs'?: (number);
  'objectReuse'?: (boolean);
  '_autoWatermarkIntervalMs'?: "autoWatermarkIntervalMs";
}

export interface JobDefaults__Output {
  'parallelism': (number);
  'maxParallelism': (number);
  'bufferTimeoutMs': (number);
  'autoWatermarkIntervalMs'?: (number);
  'objectReuse': (boolean);
  '_autoWatermarkIntervalMs'?: "autoWatermarkIntervalMs";
}
