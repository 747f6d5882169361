import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { describe, expect, it } from 'vitest';
import { parseProtos } from '../scripts/parse-protos.ts';
import { descriptor } from './generated/descriptor.ts';
import { packageDefinition } from './package-definition.ts';

const protoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../../proto');
const protoFiles = readdirSync(join(protoRoot, 'weir/v1')).map((f) => `weir/v1/${f}`);

describe('packageDefinition', () => {
  it('is built from proto/ as it is now (else run pnpm gen:proto)', () => {
    expect(JSON.parse(descriptor)).toEqual(parseProtos(protoRoot, protoFiles));
  });

  it('defines every method as @grpc/proto-loader does, with the options the generated types assume', () => {
    const reference = referenceDefinition();
    const ours = packageDefinition();
    const referenceServices = Object.keys(reference).filter((name) => !('format' in reference[name]!));
    expect(Object.keys(ours).sort()).toEqual(referenceServices.sort());
    const shape = (definition: protoLoader.ServiceDefinition | grpc.ServiceDefinition) =>
      Object.entries(definition).map(([method, d]) => ({ method, path: d.path, requestStream: d.requestStream, responseStream: d.responseStream, originalName: d.originalName }));
    for (const name of referenceServices) {
      expect(shape(ours[name]!)).toEqual(shape(reference[name] as protoLoader.ServiceDefinition));
    }
  });

  it('writes and reads messages as @grpc/proto-loader does: defaults filled in, 64-bit integers as numbers, bytes as Buffers, the oneof case named', () => {
    const reference = referenceDefinition()['weir.v1.TaskManagerService'] as protoLoader.ServiceDefinition;
    const ours = packageDefinition()['weir.v1.TaskManagerService']!;
    const messages = [
      { register: { taskManagerId: 'tm-1', dataAddress: '127.0.0.1:6121', slots: 2, pid: 4321, leaderEpoch: 3 } },
      { register: { taskManagerId: '', dataAddress: '', slots: 0, pid: 0, leaderEpoch: 0 } },
      { acknowledgeCheckpoint: { task: { jobId: 'j', vertexId: 'v' }, checkpointId: 2 ** 40, state: Buffer.from('{}'), metrics: { syncMs: 4, stateBytes: 10 } } },
    ];
    for (const message of messages) {
      const bytes = ours.Connect!.requestSerialize(message);
      expect(bytes).toEqual(reference.Connect!.requestSerialize(message));
      expect(ours.Connect!.requestDeserialize(bytes)).toEqual(reference.Connect!.requestDeserialize(bytes));
    }
    const answer = reference.Connect!.responseSerialize({ registered: { heartbeatIntervalMs: 500, heartbeatTimeoutMs: 5_000 }, leaderEpoch: 3 });
    expect(ours.Connect!.responseDeserialize(answer)).toEqual(reference.Connect!.responseDeserialize(answer));
  });
});

function referenceDefinition(): protoLoader.PackageDefinition {
  return protoLoader.loadSync(protoFiles, { longs: Number, enums: String, defaults: true, oneofs: true, includeDirs: [protoRoot] });
}
