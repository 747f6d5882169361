import type { WeirConfig } from '@weir/common';
import type { Listener } from '@weir/security';

/** What a JobManager listens on, for @weir/security's start-up exposure check. */
export function jobManagerListeners(config: WeirConfig): Listener[] {
  return [
    {
      name: "the JobManager's gRPC API",
      bindKey: 'jobmanager.bind-host',
      host: config['jobmanager.bind-host'],
      exposes: 'submit jobs (run code on the cluster), cancel them and register as a TaskManager to receive their records, in plain text',
      needs: { tls: 'internal', authentication: true },
    },
    {
      name: "the JobManager's REST API and dashboard",
      bindKey: 'rest.bind-address',
      host: config['rest.bind-address'],
      exposes: 'read every job and cancel, stop or savepoint it, in plain text',
      needs: { tls: 'rest', authentication: true },
    },
  ];
}
