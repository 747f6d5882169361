// Original file: proto/weir/v1/task_manager_service.proto


export interface ProcessMetrics {
  'heapUsedBytes'?: (number | string);
  'heapTotalBytes'?: (number | string);
  'heapMaxBytes'?: (number | string);
  'rssBytes'?: (number | string);
  'externalBytes'?: (number | string);
  'gcCount'?: (number | string);
  'gcTimeMs'?: (number | string);
  'eventLoopDelayMeanMs'?: (number | string);
  'eventLoopDelayP99Ms'?: (number | string);
  'eventLoopDelayMaxMs'?: (number | string);
  'cpuUserMs'?: (number | string);
  'cpuSystemMs'?: (number | string);
  'uptimeMs'?: (number | string);
}

export interface ProcessMetrics__Output {
  'heapUsedBytes': (number);
  'heapTotalBytes': (number);
  'heapMaxBytes': (number);
  'rssBytes': (number);
  'externalBytes': (number);
  'gcCount': (number);
  'gcTimeMs': (number);
  'eventLoopDelayMeanMs': (number);
  'eventLoopDelayP99Ms': (number);
  'eventLoopDelayMaxMs': (number);
  'cpuUserMs': (number);
  'cpuSystemMs': (number);
  'uptimeMs': (number);
}
