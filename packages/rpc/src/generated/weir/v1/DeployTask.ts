// Original file: proto/weir/v1/task_manager_service.proto

import type { TaskKey as _weir_v1_TaskKey, TaskKey__Output as _weir_v1_TaskKey__Output } from '../../weir/v1/TaskKey.ts';
import type { JobDefaults as _weir_v1_JobDefaults, JobDefaults__Output as _weir_v1_JobDefaults__Output } from '../../weir/v1/JobDefaults.ts';
import type { InputDeployment as _weir_v1_InputDeployment, InputDeployment__Output as _weir_v1_InputDeployment__Output } from '../../weir/v1/InputDeployment.ts';
import type { TaskRestore as _weir_v1_TaskRestore, TaskRestore__Output as _weir_v1_TaskRestore__Output } from '../../weir/v1/TaskRestore.ts';
import type { TaskCheckpointing as _weir_v1_TaskCheckpointing, TaskCheckpointing__Output as _weir_v1_TaskCheckpointing__Output } from '../../weir/v1/TaskCheckpointing.ts';

export interface DeployTask {
  'task'?: (_weir_v1_TaskKey | null);
  'jobName'?: (string);
  'bundleHash'?: (string);
  'entryName'?: (string);
  'args'?: (string)[];
  'defaults'?: (_weir_v1_JobDefaults | null);
  'parallelism'?: (number);
  'inputs'?: (_weir_v1_InputDeployment)[];
  'restore'?: (_weir_v1_TaskRestore | null);
  'checkpointing'?: (_weir_v1_TaskCheckpointing | null);
  'keyedStateBackend'?: (string);
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
  'restore': (_weir_v1_TaskRestore__Output | null);
  'checkpointing': (_weir_v1_TaskCheckpointing__Output | null);
  'keyedStateBackend': (string);
}
