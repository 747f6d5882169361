import type { Logger } from '@weir/common';
import {
  bindServer,
  createServer,
  services,
  toServiceError,
  type ConsumerMessage__Output,
  type DataExchangeHandlers,
  type ProducerMessage,
  type grpc,
} from '@weir/rpc';
import type { PartitionProvider } from '@weir/runtime';
import { SubscribeSession, type ProducerStream } from './subscribe-session.ts';

/** Consumers send only subscriptions and credits, each a few bytes: anything near this is not a consumer's. */
const MAX_RECEIVE_BYTES = 1024 ** 2;

/** The gRPC server through which other TaskManagers read this one's partitions. */
export interface DataServer {
  readonly port: number;
  /** Stops serving; open subscriptions end with an error on their consumers. */
  close(): void;
}

/** Binds the DataExchange service on host:port (0 picks a free port); a port in use rejects with BIND_FAILED. */
export async function startDataServer(
  host: string,
  port: number,
  partitions: PartitionProvider,
  logger: Logger,
): Promise<DataServer> {
  const server = createServer(MAX_RECEIVE_BYTES);
  const handlers: DataExchangeHandlers = {
    Subscribe(call) {
      const session = new SubscribeSession(producerStreamOf(call), partitions, logger);
      call.on('data', (message: ConsumerMessage__Output) => session.onMessage(message));
      call.on('end', () => {
        session.onConsumerGone();
        if (!call.writableEnded) call.end();
      });
      call.on('cancelled', () => session.onConsumerGone());
      call.on('error', () => session.onConsumerGone());
    },
  };
  server.addService(services.DataExchange, handlers);
  const boundPort = await bindServer(server, host, port);
  return {
    port: boundPort,
    close: () => server.forceShutdown(),
  };
}

function producerStreamOf(call: grpc.ServerDuplexStream<ConsumerMessage__Output, ProducerMessage>): ProducerStream {
  return {
    write: (message) => call.write(message),
    onDrain: (callback) => call.once('drain', callback),
    end: () => {
      if (!call.writableEnded) call.end();
    },
    // grpc-js turns an 'error' event on a server stream into the call's status.
    fail: (error) => call.emit('error', toServiceError(error)),
  };
}
