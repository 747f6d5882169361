import * as grpc from '@grpc/grpc-js';
import { bindFailed } from './errors.ts';
import type { ProtoGrpcType as DataExchangeProto } from './generated/data_exchange.ts';
import type { ProtoGrpcType as JobServiceProto } from './generated/job_service.ts';
import type { ProtoGrpcType as TaskManagerServiceProto } from './generated/task_manager_service.ts';
import type { DataExchangeClient } from './generated/weir/v1/DataExchange.ts';
import type { JobServiceClient } from './generated/weir/v1/JobService.ts';
import type { TaskManagerServiceClient } from './generated/weir/v1/TaskManagerService.ts';
import { packageDefinition } from './package-definition.ts';
import { channelCredentials, serverCredentials, type ClientTls, type ServerTls } from './tls-credentials.ts';

export { grpc };
export { verifiedPeerCertificate, type ClientTls, type ServerTls } from './tls-credentials.ts';
export type { DataExchangeClient, JobServiceClient, TaskManagerServiceClient };
export type { DataExchangeHandlers } from './generated/weir/v1/DataExchange.ts';
export type { JobServiceHandlers } from './generated/weir/v1/JobService.ts';
export type { TaskManagerServiceHandlers } from './generated/weir/v1/TaskManagerService.ts';

const proto = grpc.loadPackageDefinition(packageDefinition()) as unknown as JobServiceProto &
  TaskManagerServiceProto &
  DataExchangeProto;

/** Service definitions, for `server.addService(services.JobService, handlers)`. */
export const services = {
  JobService: proto.weir.v1.JobService.service,
  TaskManagerService: proto.weir.v1.TaskManagerService.service,
  DataExchange: proto.weir.v1.DataExchange.service,
} as const;

/**
 * What a client accepts and sends: job bundles and record batches can be large, the gRPC
 * default of 4 MiB is too small for bundles. Servers bound what they receive themselves
 * (`createServer`).
 */
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/**
 * Every client's options; a factory's `options` argument adds to them (reconnect backoff,
 * say), its `tls` makes the channel TLS (internal mutual TLS, or only the CA for a CLI).
 */
const channelOptions: grpc.ChannelOptions = {
  'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
  'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  'grpc.keepalive_time_ms': 10_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.keepalive_permit_without_calls': 1,
};

export function createJobServiceClient(address: string, options: grpc.ChannelOptions = {}, tls?: ClientTls): JobServiceClient {
  return new proto.weir.v1.JobService(address, channelCredentials(tls), { ...channelOptions, ...options });
}

export function createTaskManagerServiceClient(address: string, options: grpc.ChannelOptions = {}, tls?: ClientTls): TaskManagerServiceClient {
  return new proto.weir.v1.TaskManagerService(address, channelCredentials(tls), { ...channelOptions, ...options });
}

export function createDataExchangeClient(address: string, options: grpc.ChannelOptions = {}, tls?: ClientTls): DataExchangeClient {
  return new proto.weir.v1.DataExchange(address, channelCredentials(tls), { ...channelOptions, ...options });
}

/**
 * A gRPC server that refuses, with RESOURCE_EXHAUSTED and before decoding it, any message
 * larger than `maxReceiveBytes`: every server says how much it accepts. `options` adds to
 * the defaults (a keepalive of its own, say).
 */
export function createServer(maxReceiveBytes: number, options: grpc.ServerOptions = {}): grpc.Server {
  return new grpc.Server({
    'grpc.max_receive_message_length': maxReceiveBytes,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
    'grpc.keepalive_permit_without_calls': 1,
    'grpc.http2.min_ping_interval_without_data_ms': 5_000,
    ...options,
  });
}

/**
 * Binds `server` to host:port and resolves with the bound port (useful with port 0). A port
 * already in use rejects with a RpcErrorCode.BIND_FAILED error naming the address. With
 * `tls` (from @weir/security's PemSource) the port speaks only TLS: a plaintext client fails.
 */
export function bindServer(server: grpc.Server, host: string, port: number, tls?: ServerTls): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(`${host}:${port}`, serverCredentials(tls), (err, boundPort) => {
      if (err) reject(bindFailed(host, port, err));
      else resolve(boundPort);
    });
  });
}
