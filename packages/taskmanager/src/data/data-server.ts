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
import type { PemSource } from '@weir/security';
import { describeSubpartition, type PartitionProvider } from '@weir/runtime';
import { dataKeepalive, DEFAULT_KEEPALIVE_TIMEOUT_MS } from './peer-reports.ts';
import { SubscribeSession, type ProducerStream } from './subscribe-session.ts';

/** Consumers send only subscriptions and credits, each a few bytes: anything near this is not a consumer's. */
const MAX_RECEIVE_BYTES = 1024 ** 2;

/** The gRPC server through which other TaskManagers read this one's partitions. */
export interface DataServer {
  readonly port: number;
  /** Stops serving; open subscriptions end with an error on their consumers. */
  close(): void;
}

/**
 * Binds the DataExchange service on host:port (0 picks a free port); a port in use rejects
 * with BIND_FAILED. `onConsumerUnreachable` hears of a consumer whose call broke while it was
 * being served (it did not answer the server's keepalive pings, or its connection went away)
 * by the data address the consumer sent: a TaskManager that only produces for a hung one
 * notices it as fast as a consumer of it does. `keepaliveTimeoutMs` is heartbeat.timeout
 * (`dataKeepalive`).
 */
export async function startDataServer(
  host: string,
  port: number,
  partitions: PartitionProvider,
  logger: Logger,
  onConsumerUnreachable: (consumerDataAddress: string, cause: string) => void = () => {},
  keepaliveTimeoutMs = DEFAULT_KEEPALIVE_TIMEOUT_MS,
  tls?: PemSource,
): Promise<DataServer> {
  const server = createServer(MAX_RECEIVE_BYTES, dataKeepalive(keepaliveTimeoutMs));
  const handlers: DataExchangeHandlers = {
    Subscribe(call) {
      const session = new SubscribeSession(producerStreamOf(call), partitions, logger);
      let consumerDataAddress = '';
      let unsubscribed = false;
      // A consumer that is done says so first; a call that ends while being served without it broke.
      const consumerLeft = (): void => {
        const served = session.serving;
        session.onConsumerGone();
        if (served !== undefined && !unsubscribed) {
          onConsumerUnreachable(consumerDataAddress, `the call of its consumer of subpartition ${describeSubpartition(served)} broke (no answer to keepalive pings, or the connection went away)`);
        }
      };
      call.on('data', (message: ConsumerMessage__Output) => {
        if (message.subscribe && consumerDataAddress === '') consumerDataAddress = message.subscribe.consumerDataAddress;
        if (message.unsubscribe) unsubscribed = true;
        session.onMessage(message);
      });
      call.on('end', () => {
        consumerLeft();
        if (!call.writableEnded) call.end();
      });
      call.on('cancelled', consumerLeft);
      call.on('error', () => session.onConsumerGone());
    },
  };
  server.addService(services.DataExchange, handlers);
  // With internal TLS only a TaskManager with a certificate the cluster CA signed can subscribe: the handshake fails for anyone else.
  const boundPort = await bindServer(server, host, port, tls === undefined ? undefined : { source: tls, clientCertificates: 'required' });
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
