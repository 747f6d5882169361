#!/usr/bin/env node
// The installed `weir` binary (Docker's PATH): runs src/main.ts under tsx in a child node and
// relays stop signals to it, so `docker stop` reaches the JobManager or TaskManager.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const tsx = import.meta.resolve('tsx');
const child = spawn(process.execPath, ['--import', tsx, main, ...process.argv.slice(2)], { stdio: 'inherit' });

// SIGINT is relayed as SIGTERM: Ctrl-C in a terminal already sends the child its own SIGINT,
// and a second SIGINT would make it give up on a clean shutdown.
process.on('SIGINT', () => child.kill('SIGTERM'));
for (const signal of ['SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  if (signal !== null) {
    // Die of the same signal, as a shell would report it; the relaying handler must go first.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
