const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Resolves with the first SIGTERM or SIGINT. The same signal again while the process is still
 * stopping calls `force`, so a stuck shutdown can be interrupted with a second Ctrl-C. The
 * other signal is ignored: Ctrl-C in a terminal sends SIGINT to a whole process group, and a
 * supervisor (`weir cluster start`, bin/weir.js) then sends SIGTERM too, which must not cut
 * the shutdown short.
 */
export function waitForStopSignal(force: (signal: NodeJS.Signals) => void): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      for (const name of STOP_SIGNALS) process.removeListener(name, onSignal);
      for (const name of STOP_SIGNALS) process.on(name, name === signal ? force : ignore);
      resolve(signal);
    };
    for (const name of STOP_SIGNALS) process.once(name, onSignal);
  });
}

function ignore(): void {}
