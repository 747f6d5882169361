import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CheckpointOptions as _weir_v1_CheckpointOptions, CheckpointOptions__Output as _weir_v1_CheckpointOptions__Output } from './weir/v1/CheckpointOptions.ts';
import type { TaskKey as _weir_v1_TaskKey, TaskKey__Output as _weir_v1_TaskKey__Output } from './weir/v1/TaskKey.ts';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  weir: {
    v1: {
      CheckpointOptions: MessageTypeDefinition<_weir_v1_CheckpointOptions, _weir_v1_CheckpointOptions__Output>
      TaskKey: MessageTypeDefinition<_weir_v1_TaskKey, _weir_v1_TaskKey__Output>
    }
  }
}

