import { join } from 'node:path';
import protobuf from 'protobufjs';

/**
 * `files` (paths below `protoRoot`, with what they import) parsed as @grpc/proto-loader parses
 * them (field names camelCased), in protobufjs's JSON form: what `pnpm gen:proto` writes to
 * src/generated/descriptor.ts, and what its test compares that file with.
 */
export function parseProtos(protoRoot: string, files: readonly string[]): protobuf.INamespace {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(protoRoot, target);
  root.loadSync([...files]);
  root.resolveAll();
  return root.toJSON();
}
