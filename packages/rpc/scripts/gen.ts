// Regenerates src/generated from proto/ (run `pnpm gen:proto` after changing a .proto file).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseProtos } from './parse-protos.ts';

const here = dirname(fileURLToPath(import.meta.url));
const protoRoot = join(here, '../../../proto');
const out = join(here, '../src/generated');
const files = readdirSync(join(protoRoot, 'weir/v1')).map((f) => `weir/v1/${f}`);
rmSync(out, { recursive: true, force: true });
execFileSync(
  join(here, '../node_modules/.bin/proto-loader-gen-types'),
  ['--longs=Number', '--enums=String', '--defaults', '--oneofs', '--grpcLib=@grpc/grpc-js', '--includeDirs', protoRoot, '--outDir', out, '--targetFileExtension=.ts', '--importFileExtension=.ts', ...files],
  { stdio: 'inherit' },
);
// The generator writes absolute paths into headers; keep the output the same on every checkout.
for (const file of walk(out)) {
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll(`${protoRoot}/`, 'proto/'));
}

// The descriptor the processes load (src/package-definition.ts): proto/ parsed here, once, not
// at every start. A JSON string: JSON.parse reads it faster than JavaScript parses an object
// literal, and protobufjs's INamespace type wrongly requires a comment on every method.
writeFileSync(
  join(out, 'descriptor.ts'),
  [
    '// Generated from proto/ by `pnpm gen:proto`: protobufjs\'s JSON form of the .proto files. Do not edit.',
    `export const descriptor = ${JSON.stringify(JSON.stringify(parseProtos(protoRoot, files)))};`,
    '',
  ].join('\n'),
);

// messages.ts re-exports every message type, so other packages import them from @weir/rpc.
const messageDir = join(out, 'weir/v1');
const exportsLines = readdirSync(messageDir)
  .map((f) => f.replace(/\.ts$/, ''))
  .filter((name) => !/(Service|DataExchange)$/.test(name))
  .sort()
  .map((name) => `export type { ${name}, ${name}__Output } from './generated/weir/v1/${name}.ts';`);
writeFileSync(
  join(here, '../src/messages.ts'),
  ['// Message types, generated from proto/ by `pnpm gen:proto`. `X` is what you send; `X__Output` what you receive (defaults filled in).', ...exportsLines, ''].join('\n'),
);

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}
