#!/usr/bin/env node
// `npm create weir <dir>` (npm runs this package's bin): the same as `weir init <dir>`. It runs
// the weir command it depends on, so the project it writes and the messages it prints are
// exactly `weir init`'s; its arguments (`<dir>`, `--tarballs <dir>`) go through unchanged.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The weir command's bin: `weir` when installed from npm or a tarball, `@weir/cli` in Weir's own workspace. */
function weirBin() {
  for (const name of ['weir', '@weir/cli']) {
    try {
      // The package's main is <root>/packages/cli/dist/index.js (published) or <root>/src/index.ts (workspace): bin/ is beside either's parent.
      return join(dirname(dirname(require.resolve(name))), 'bin', 'weir.js');
    } catch {
      // Not this one: try the next name.
    }
  }
  return undefined;
}

const args = process.argv.slice(2);
if (args.length === 0 || args[0] === '--help' || args[0] === '-h') {
  console.log('usage: npm create weir <dir> [-- --tarballs <dir>]\n\nWrites a new Weir job project to <dir>, as `weir init <dir>` does.');
  process.exit(args.length === 0 ? 1 : 0);
}
const bin = weirBin();
if (bin === undefined) {
  console.error('error: create-weir cannot find the weir package it depends on; reinstall create-weir');
  process.exit(1);
}
const result = spawnSync(process.execPath, [bin, 'init', ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);
