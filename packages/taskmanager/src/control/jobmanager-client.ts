import { createTaskManagerServiceClient, type TaskManagerServiceClient } from '@weir/rpc';
import { RECONNECT_INITIAL_MS, RECONNECT_MAX_MS } from './backoff.ts';

/**
 * gRPC's own reconnect backoff grows to two minutes while the JobManager is down, so a
 * TaskManager would sit idle long after the JobManager came back. This channel retries on
 * the same schedule as the control stream does.
 */
export function createJobManagerClient(address: string): TaskManagerServiceClient {
  const client = createTaskManagerServiceClient(address, {
    'grpc.initial_reconnect_backoff_ms': RECONNECT_INITIAL_MS,
    'grpc.max_reconnect_backoff_ms': RECONNECT_MAX_MS,
  });
  // Connect now rather than at the first call: the TCP and HTTP/2 handshakes overlap the rest of the start.
  client.getChannel().getConnectivityState(true);
  return client;
}
