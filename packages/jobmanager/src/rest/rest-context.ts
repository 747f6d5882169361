import type { Clock, WeirConfig } from '@weir/common';
import type { Dispatcher } from '../dispatcher.ts';
import type { MetricStore } from '../metrics/metric-store.ts';
import type { RegisteredTaskManager } from '../registry/task-manager-registry.ts';
import type { SavepointService } from '../savepoint/savepoint-service.ts';
import type { SlotPool } from '../scheduler/slot-pool.ts';
import type { ClientRateLimiter } from '../service/client-rate-limiter.ts';
import type { SavepointOperations } from './savepoint-operations.ts';

/** What the REST handlers read and act on: the JobManager's own parts. */
export interface RestContext {
  readonly dispatcher: Dispatcher;
  readonly taskManagers: { connected(): RegisteredTaskManager[] };
  readonly slotPool: SlotPool;
  readonly savepoints: SavepointService;
  readonly operations: SavepointOperations;
  /** Limits savepoint triggers per client, together with the gRPC API's. */
  readonly rateLimiter: ClientRateLimiter;
  readonly metrics: MetricStore;
  readonly clock: Clock;
  /** This JobManager's configuration, for GET /jobmanager/config (sensitive values masked there). */
  readonly configuration: WeirConfig;
  /** web.refresh-interval: how often the dashboard polls. */
  readonly refreshIntervalMs: number;
  readonly version: string;
  /** The JobManager answering, which leads: its addresses, and its epoch under HA. */
  leader(): LeaderView;
}

/** The leading JobManager as GET /overview names it. */
export interface LeaderView {
  /** host:port of its gRPC server (jobmanager.rpc.address). */
  readonly address: string;
  /** http://host:port of its REST API (rest.address, else jobmanager.rpc.address). */
  readonly restUrl: string;
  /** Its leadership epoch (fencing token) under HA; null without HA. */
  readonly epoch: number | null;
}
