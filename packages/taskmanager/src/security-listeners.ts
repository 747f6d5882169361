import type { WeirConfig } from '@weir/common';
import type { Listener } from '@weir/security';

/**
 * What a TaskManager listens on, for @weir/security's start-up exposure check. The data port
 * is protected by mutual TLS alone: its only callers are TaskManagers, which show node
 * certificates; so is the liveness endpoint, whose only caller is the JobManager.
 */
export function taskManagerListeners(config: WeirConfig): Listener[] {
  return [
    {
      name: "the TaskManager's data port",
      bindKey: 'taskmanager.bind-host',
      host: config['taskmanager.bind-host'],
      exposes: "subscribe to the running jobs' records, in plain text",
      needs: { tls: 'internal', authentication: false },
    },
    {
      name: "the TaskManager's liveness endpoint",
      bindKey: 'taskmanager.bind-host',
      host: config['taskmanager.bind-host'],
      exposes: 'probe whether the TaskManager runs, in plain text',
      needs: { tls: 'internal', authentication: false },
    },
  ];
}
