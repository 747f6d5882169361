import { createTaskManagerServiceClient, type TaskManagerServiceClient } from '@weir/rpc';
import type { PemSource } from '@weir/security';
import { RECONNECT_INITIAL_MS, RECONNECT_MAX_MS } from './backoff.ts';

/**
 * gRPC's own reconnect backoff grows to two minutes while the JobManager is down, so a
 * TaskManager would sit idle long after the JobManager came back. This channel retries on
 * the same schedule as the control stream does.
 *
 * A keepalive ping waits `keepaliveTimeoutMs` (heartbeat.timeout) for its answer, not the
 * default 5 s: its deadline is a timer of this event loop, and after a block of the loop
 * (a long synchronous user function) timers run before the answer waiting in the socket is
 * read, so a short one would break a healthy stream of a TaskManager that was only busy.
 *
 * With `tls` (security.ssl.internal.*) the TaskManager shows its node certificate: the
 * JobManager lets only CA-signed TaskManagers register.
 */
export function createJobManagerClient(address: string, keepaliveTimeoutMs: number, tls?: PemSource): TaskManagerServiceClient {
  const client = createTaskManagerServiceClient(address, {
    'grpc.initial_reconnect_backoff_ms': RECONNECT_INITIAL_MS,
    'grpc.max_reconnect_backoff_ms': RECONNECT_MAX_MS,
    'grpc.keepalive_timeout_ms': keepaliveTimeoutMs,
  }, tls === undefined ? undefined : { source: tls });
  // Connect now rather than at the first call: the TCP and HTTP/2 handshakes overlap the rest of the start.
  client.getChannel().getConnectivityState(true);
  return client;
}
