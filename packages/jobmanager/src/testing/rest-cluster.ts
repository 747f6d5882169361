import { defaultConfig } from '@weir/common';
import { ClientRateLimiter } from '../service/client-rate-limiter.ts';
import { silentLogger } from '@weir/common/testing';
import { MetricStore } from '../metrics/metric-store.ts';
import { buildRestApp, type RestServerOptions } from '../rest/rest-server.ts';
import { SavepointOperations } from '../rest/savepoint-operations.ts';
import { savepointCluster } from './savepoint-cluster.ts';

/**
 * A running checkpointing job (src p=2 -> map p=3 -> sink p=1 on tm-1 and tm-2) behind the
 * REST app, called in-process; `forwarding` makes it a standby's app, `server.guard` one with authentication, `server.limits` one with other limits.
 */
export function restCluster(
  job: Parameters<typeof savepointCluster>[0] = {},
  forwarding?: RestServerOptions['forwarding'],
  server: Pick<RestServerOptions, 'limits' | 'guard'> & { readonly dashboardDir?: string } = {},
) {
  const c = savepointCluster(job);
  const metrics = new MetricStore();
  const app = buildRestApp({
    logger: silentLogger(),
    forwarding,
    ...server,
    dashboardDir: server.dashboardDir,
    context: {
      dispatcher: c.dispatcher,
      taskManagers: {
        connected: () =>
          ['tm-1', 'tm-2'].map((id) => ({ id, dataAddress: `${id}:7000`, livenessAddress: `${id}:7001`, slots: 2, pid: 42, registeredAtMs: 500, lastSeenMs: c.clock.now() })),
      },
      slotPool: c.slotPool,
      savepoints: c.service,
      operations: new SavepointOperations(),
      rateLimiter: new ClientRateLimiter(0, c.clock),
      metrics,
      clock: c.clock,
      configuration: { ...defaultConfig(), 's3.secret-key': 'hunter2', 's3.access-key': 'AKIA-ACCESS' },
      refreshIntervalMs: 1_000,
      version: '0.1.0',
      leader: () => ({ address: 'jm-1:6123', restUrl: 'http://jm-1:8081', epoch: 7 }),
    },
  });
  const get = async (url: string) => {
    const response = await app.inject({ method: 'GET', url });
    return { status: response.statusCode, body: response.json() as Record<string, any>, headers: response.headers };
  };
  return { ...c, app, metrics, get };
}

/** A subtask's metrics as a TaskManager reports them. */
export const SNAPSHOT = {
  numRecordsIn: 100,
  numRecordsOut: 90,
  numBytesIn: 1_000,
  numBytesOut: 900,
  numRecordsInPerSecond: 10,
  numRecordsOutPerSecond: 9,
  numBytesInPerSecond: 100,
  numBytesOutPerSecond: 90,
  busyTimeMsPerSecond: 200,
  backPressuredTimeMsPerSecond: 600,
  idleTimeMsPerSecond: 200,
  accumulatedBusyTimeMs: 2_000,
  accumulatedBackPressuredTimeMs: 6_000,
  accumulatedIdleTimeMs: 2_000,
  inputQueueLength: 1,
  outputQueueLength: 2,
  inPoolUsage: 0.25,
  outPoolUsage: 0.5,
  currentInputWatermark: 5_000,
};
