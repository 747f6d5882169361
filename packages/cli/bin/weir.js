#!/usr/bin/env node
// The `weir` command: the compiled CLI that `pnpm build` writes to dist/. The JobManager and
// TaskManagers run as this too. Source maps are not turned on here: a job's code turns them on
// when it loads (@weir/common's loadJobBundle), so a job's stack traces name its own files,
// while Weir's own frames name dist/*.js. Mapping those too would parse the source map of each
// dist file in the first stack a process formats (rpc's and runtime's together are 0.5 MB):
// 100-200 ms in which, right after a TaskManager died, the JobManager or a surviving
// TaskManager answered nothing. NODE_OPTIONS=--enable-source-maps maps them, for debugging.
import { existsSync } from 'node:fs';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  console.error('error: the weir command is not built (packages/cli/dist/main.js is missing); run `pnpm build` in the repository first');
  process.exit(1);
}
// Imported only once it is known to exist, so that a missing build gets the message above.
await import(main.href);
