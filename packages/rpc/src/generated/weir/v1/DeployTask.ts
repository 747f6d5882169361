// Original file: proto/weir/v1/task_manager_service.proto

import type { TaskKey as _weir_v1_TaskKey, TaskKey__Output as _weir_v1_TaskKey__Output } from '../../weir/v1/TaskKey.ts';
import type { JobDefaults as _weir_v1_JobDefaults, JobDefaults__Output as _weir_v1_JobDefaults__Output } from '../../weir/v1/JobDefaults.ts';
import type { InputDeployment as _weir_v1_InputDeployment, InputDeployment__Output as _weir_v1_InputDeployment__Output } from '../../weir/v1/InputDeployment.ts';

export interface DeployTask {
  'task'?: (_weir_v1_TaskKey | null);
  'jobName'?: (string);
  'bundleHash'?: (string);
  'entryName'?: (string);
  'args'?: (string)[];
  'defaults'?: (_weir_v1_JobDefaults | null);
  'parallelism'?: (number);
  'inputs'?: (_weir_v1_InputDeployment)[];
}

export interface DeployTask__Output {
  'task': (_weir_v1_TaskKey__Output | null);
  'jobName': (string);
  'bundleHash': (string);
  'entryName': (string);
  'args': (string)[];
  'defaults': (_weir_v1_JobDefaults__Output | null);
  'parallelism': (number);
  'inputs': (_weir_v1_InputDeployment__Output)[];
}
