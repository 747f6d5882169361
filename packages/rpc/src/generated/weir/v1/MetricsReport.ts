// Original file: proto/weir/v1/task_manager_service.proto

import type { ProcessMetrics as _weir_v1_ProcessMetrics, ProcessMetrics__Output as _weir_v1_ProcessMetrics__Output } from '../../weir/v1/ProcessMetrics.ts';
import type { SubtaskMetrics as _weir_v1_SubtaskMetrics, SubtaskMetrics__Output as _weir_v1_SubtaskMetrics__Output } from '../../weir/v1/SubtaskMetrics.ts';

export interface MetricsReport {
  'process'?: (_weir_v1_ProcessMetrics | null);
  'tasks'?: (_weir_v1_SubtaskMetrics)[];
}

export interface MetricsReport__Output {
  'process': (_weir_v1_ProcessMetrics__Output | null);
  'tasks': (_weir_v1_SubtaskMetrics__Output)[];
}
