import { WeirError, isWeirError, type Logger } from '@weir/common';
import {
  createDataExchangeClient,
  fromServiceError,
  RpcErrorCode,
  type ConsumerMessage,
  type DataExchangeClient,
  type ProducerMessage__Output,
  type SubscribeRequest,
  type grpc,
} from '@weir/rpc';
import {
  describeSubpartition,
  type ChannelItem,
  type ChannelListener,
  type RemoteConnector,
  type SubpartitionId,
  type Subscription,
} from '@weir/runtime';
import type { PemSource } from '@weir/security';
import { TaskManagerErrorCode } from '../errors.ts';
import { dataKeepalive, DEFAULT_KEEPALIVE_TIMEOUT_MS, type PeerReports } from './peer-reports.ts';
import { fromProducerMessage, toSubscribeRequest } from './wire.ts';

/**
 * The HTTP/2 receive window of data connections, per stream and per connection. Credits decide
 * what a producer may send (INITIAL_CREDIT buffers per channel, each taken back only once the
 * consumer processed one), so they bound the bytes in flight; HTTP/2's default window of
 * 64 KiB would cap each channel at two 32 KiB buffers per round trip through both event
 * loops, a second flow control under the first that kept the shuffle bench's TaskManagers
 * idle some 20% of the time (event-loop utilization 0.75-0.80, 0.90-0.95 with this window).
 */
export const DATA_FLOW_CONTROL_WINDOW_BYTES = 2 ** 31 - 1;

/** Reads subpartitions of producers in other TaskManagers over DataExchange.Subscribe, one client per address. */
export class GrpcRemoteConnector implements RemoteConnector {
  readonly #clients = new Map<string, DataExchangeClient>();
  readonly #logger: Logger;
  readonly #peers: PeerReports | undefined;
  readonly #ownDataAddress: string;
  readonly #channelOptions: grpc.ChannelOptions;
  readonly #tls: PemSource | undefined;

  /**
   * `peers` hears of a producer whose connection broke (no keepalive answer, refused, reset);
   * `ownDataAddress` is this TaskManager's, sent with each subscription so that the producer
   * can report this consumer in turn; `keepaliveTimeoutMs` is heartbeat.timeout (`dataKeepalive`);
   * `tls` the node certificate the producer's data port demands (security.ssl.internal.*).
   */
  constructor(logger: Logger, options: { readonly peers?: PeerReports; readonly ownDataAddress?: string; readonly keepaliveTimeoutMs?: number; readonly tls?: PemSource } = {}) {
    this.#logger = logger;
    this.#peers = options.peers;
    this.#ownDataAddress = options.ownDataAddress ?? '';
    this.#tls = options.tls;
    this.#channelOptions = {
      ...dataKeepalive(options.keepaliveTimeoutMs ?? DEFAULT_KEEPALIVE_TIMEOUT_MS),
      'grpc-node.flow_control_window': DATA_FLOW_CONTROL_WINDOW_BYTES,
    };
  }

  connect(dataAddress: string, id: SubpartitionId, initialCredit: number, listener: ChannelListener): Subscription {
    const call = this.#clientFor(dataAddress).Subscribe();
    const request = toSubscribeRequest(id, initialCredit, this.#ownDataAddress);
    return new RemoteSubscription(call, dataAddress, request, id, listener, this.#logger, (cause) => this.#peers?.unreachable(dataAddress, cause.message));
  }

  /** Closes every client; calls still open on them fail. */
  close(): void {
    for (const client of this.#clients.values()) client.close();
    this.#clients.clear();
  }

  #clientFor(address: string): DataExchangeClient {
    let client = this.#clients.get(address);
    if (client === undefined) {
      client = createDataExchangeClient(address, this.#channelOptions, this.#tls === undefined ? undefined : { source: this.#tls });
      this.#clients.set(address, client);
    }
    return client;
  }
}

type SubscribeCall = grpc.ClientDuplexStream<ConsumerMessage, ProducerMessage__Output>;

class RemoteSubscription implements Subscription {
  readonly #call: SubscribeCall;
  readonly #address: string;
  readonly #id: SubpartitionId;
  readonly #listener: ChannelListener;
  readonly #logger: Logger;
  #endOfPartition = false;
  /** Set once the consumer closed or the listener heard its error: nothing reaches the listener after. */
  #done = false;

  constructor(
    call: SubscribeCall,
    address: string,
    request: SubscribeRequest,
    id: SubpartitionId,
    listener: ChannelListener,
    logger: Logger,
    private readonly unreachable: (cause: WeirError) => void,
  ) {
    this.#call = call;
    this.#address = address;
    this.#id = id;
    this.#listener = listener;
    this.#logger = logger;
    call.on('data', (message: ProducerMessage__Output) => this.#onMessage(message));
    call.on('error', (error: grpc.ServiceError) => {
      const failure = fromServiceError(error, address);
      if (!this.#done && !this.#endOfPartition && isWeirError(failure, RpcErrorCode.UNAVAILABLE)) this.unreachable(failure);
      this.#fail(failure);
    });
    // 'end' comes after every message was delivered, unlike 'status'.
    call.on('end', () => this.#onEnd());
    call.write({ subscribe: request });
  }

  addCredit(buffers: number): void {
    if (this.#done || this.#endOfPartition) return;
    this.#call.write({ credit: { buffers } });
  }

  /**
   * Says `unsubscribe` and half-closes the call (the producer then ends it) rather than
   * cancel it: a producer tells a consumer that is done from one whose TaskManager hung or died.
   */
  close(): void {
    if (this.#done) return;
    this.#done = true;
    if (!this.#endOfPartition) this.#call.write({ unsubscribe: {} });
    this.#call.end();
  }

  #onMessage(message: ProducerMessage__Output): void {
    if (this.#done) return;
    let item: ChannelItem | undefined;
    try {
      item = fromProducerMessage(message);
    } catch (error) {
      this.close();
      this.#listener.onError(error as Error);
      return;
    }
    if (item === undefined) {
      this.#logger.debug({ address: this.#address, kind: message.kind }, 'ignored a producer message of unknown kind');
      return;
    }
    if (item.kind === 'end-of-partition') this.#endOfPartition = true;
    this.#listener.onItem(item);
  }

  #onEnd(): void {
    if (this.#endOfPartition) return;
    this.#fail(
      new WeirError(
        TaskManagerErrorCode.PRODUCER_STREAM_ENDED,
        `the producer at ${this.#address} ended subpartition ${describeSubpartition(this.#id)} before end of partition`,
      ),
    );
  }

  #fail(error: Error): void {
    // After end of partition the consumer has all it needs; a late transport error is no news to it.
    if (this.#done || this.#endOfPartition) return;
    this.#done = true;
    this.#listener.onError(error);
  }
}
