import type * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs/light.js';
import { descriptor } from './generated/descriptor.ts';

/**
 * How a received message becomes an object: @grpc/proto-loader's options, which the generated
 * types in ./generated assume (`pnpm gen:proto` passes the same to proto-loader-gen-types).
 */
const conversion: protobuf.IConversionOptions = { longs: Number, enums: String, defaults: true, oneofs: true };

/**
 * The services of proto/ by full name (`weir.v1.JobService`), for grpc.loadPackageDefinition,
 * built as @grpc/proto-loader builds them (each method's path, serializers and camelCase
 * alias) but from the descriptor `pnpm gen:proto` wrote: a process starts without loading
 * proto-loader and the .proto parser and without parsing proto/ again, which took about 40 ms
 * of every start.
 */
export function packageDefinition(): Record<string, grpc.ServiceDefinition> {
  const json: protobuf.INamespace = JSON.parse(descriptor);
  // fromJSON resolves every type and method, as proto-loader does.
  const root = protobuf.Root.fromJSON(json);
  const definition: Record<string, grpc.ServiceDefinition> = {};
  for (const service of services(root)) {
    const name = service.fullName.slice(1);
    definition[name] = Object.fromEntries(service.methodsArray.map((method) => [method.name, methodDefinition(name, method)]));
  }
  return definition;
}

function services(namespace: protobuf.NamespaceBase): protobuf.Service[] {
  return namespace.nestedArray.flatMap((nested) =>
    nested instanceof protobuf.Service ? [nested] : nested instanceof protobuf.Namespace ? services(nested) : [],
  );
}

function methodDefinition(serviceName: string, method: protobuf.Method): grpc.MethodDefinition<object, object> {
  const request = method.resolvedRequestType!;
  const response = method.resolvedResponseType!;
  return {
    path: `/${serviceName}/${method.name}`,
    requestStream: method.requestStream === true,
    responseStream: method.responseStream === true,
    requestSerialize: serializer(request),
    requestDeserialize: deserializer(request),
    responseSerialize: serializer(response),
    responseDeserialize: deserializer(response),
    // grpc-js gives a client both names: client.SubmitJob and client.submitJob.
    originalName: method.name[0]!.toLowerCase() + method.name.slice(1),
  };
}

function serializer(type: protobuf.Type): (value: object) => Buffer {
  // protobufjs writes into a Buffer on Node.
  return (value) => type.encode(type.fromObject(value)).finish() as Buffer;
}

function deserializer(type: protobuf.Type): (bytes: Buffer) => object {
  return (bytes) => type.toObject(type.decode(bytes), conversion);
}
