#!/usr/bin/env node
// The image's HEALTHCHECK, for whichever role the container runs. A JobManager is healthy when
// it answers a call (`weir list`) within the check's time (a standby's NOT_LEADER counts, and,
// with authentication on, the refusal of a call without a token: the check holds none): an
// open port alone would pass with its event loop stuck. With internal TLS the CLI verifies the
// JobManager with the CA of the container's configuration (WEIR_SECURITY_SSL_INTERNAL_CA). A TaskManager is healthy when its data port (taskmanager.data.port)
// accepts connections, or, with a port picked at start (0), while it runs. Anything else (a
// one-off `weir run`) is healthy while it runs.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';

/** The role of the weir process in this container: the argument after the weir command. */
function role() {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)) {
    let argv;
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const at = argv.findIndex((arg) => /(^|\/)weir(\.js)?$/.test(arg));
    if (at >= 0 && (argv[at + 1] === 'jobmanager' || argv[at + 1] === 'taskmanager')) return argv[at + 1];
  }
  return undefined;
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

switch (role()) {
  case 'jobmanager': {
    const port = process.env.WEIR_JOBMANAGER_RPC_PORT || '6123';
    try {
      execFileSync('weir', ['list', '-m', `127.0.0.1:${port}`], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 8_000 });
    } catch (err) {
      // With HA a standby answers every call with NOT_LEADER, with authentication on every
      // JobManager refuses a call without a token: it answered, so it is healthy.
      const stderr = String(err.stderr ?? '');
      if (!stderr.includes('is a standby') && !stderr.includes('needs a token')) process.exit(1);
    }
    break;
  }
  case 'taskmanager': {
    const port = Number(process.env.WEIR_TASKMANAGER_DATA_PORT || '0');
    if (port !== 0 && !(await accepts(port))) process.exit(1);
    break;
  }
}
