#!/usr/bin/env node
// The `weir` command: the compiled CLI that `pnpm build` writes to dist/, with stack traces
// mapped back to the TypeScript sources. The JobManager and TaskManagers run as this too.
import { existsSync } from 'node:fs';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  console.error('error: the weir command is not built (packages/cli/dist/main.js is missing); run `pnpm build` in the repository first');
  process.exit(1);
}
// Only modules loaded after this call get mapped, hence the dynamic import.
process.setSourceMapsEnabled(true);
await import(main.href);
