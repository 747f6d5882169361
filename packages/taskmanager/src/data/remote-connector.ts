import { WeirError, isWeirError, type Logger } from '@weir/common';
import {
  createDataExchangeClient,
  fromServiceError,
  RpcErrorCode,
  type ConsumerMessage,
  type DataExchangeClient,
  type ProducerMessage__Output,
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
import { TaskManagerErrorCode } from '../errors.ts';
import { fromProducerMessage, toSubscribeRequest } from './wire.ts';

/**
 * Keepalive of data connections: a peer that does not answer a ping within 3 s (hung,
 * SIGSTOPped, its host gone) breaks its channels 3 to 6 s after it stopped, instead of the
 * 5 to 15 s of the control stream's settings.
 */
const DATA_KEEPALIVE: grpc.ChannelOptions = { 'grpc.keepalive_time_ms': 3_000, 'grpc.keepalive_timeout_ms': 3_000 };

/** A peer reported unreachable is not reported again for this long: every channel to it breaks at once. */
const UNREACHABLE_REPORT_INTERVAL_MS = 5_000;

/** Called when a data connection to another TaskManager broke as a hung or dead peer's does. */
export type PeerUnreachableListener = (dataAddress: string, cause: string) => void;

/** Reads subpartitions of producers in other TaskManagers over DataExchange.Subscribe, one client per address. */
export class GrpcRemoteConnector implements RemoteConnector {
  readonly #clients = new Map<string, DataExchangeClient>();
  readonly #logger: Logger;
  readonly #onPeerUnreachable: PeerUnreachableListener;
  readonly #lastReported = new Map<string, number>();

  /** `onPeerUnreachable` hears of a peer whose connection broke (no keepalive answer, refused, reset), once per peer every 5 s. */
  constructor(logger: Logger, onPeerUnreachable: PeerUnreachableListener = () => {}) {
    this.#logger = logger;
    this.#onPeerUnreachable = onPeerUnreachable;
  }

  connect(dataAddress: string, id: SubpartitionId, initialCredit: number, listener: ChannelListener): Subscription {
    const call = this.#clientFor(dataAddress).Subscribe();
    return new RemoteSubscription(call, dataAddress, id, initialCredit, listener, this.#logger, (cause) => this.#unreachable(dataAddress, cause));
  }

  /** Closes every client; calls still open on them fail. */
  close(): void {
    for (const client of this.#clients.values()) client.close();
    this.#clients.clear();
  }

  #unreachable(address: string, cause: WeirError): void {
    const now = Date.now();
    if (now - (this.#lastReported.get(address) ?? -Infinity) < UNREACHABLE_REPORT_INTERVAL_MS) return;
    this.#lastReported.set(address, now);
    this.#logger.warn({ peer: address, cause: cause.message }, 'a peer TaskManager is unreachable; reporting it to the JobManager');
    this.#onPeerUnreachable(address, cause.message);
  }

  #clientFor(address: string): DataExchangeClient {
    let client = this.#clients.get(address);
    if (client === undefined) {
      client = createDataExchangeClient(address, DATA_KEEPALIVE);
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
    id: SubpartitionId,
    initialCredit: number,
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
    call.write({ subscribe: toSubscribeRequest(id, initialCredit) });
  }

  addCredit(buffers: number): void {
    if (this.#done || this.#endOfPartition) return;
    this.#call.write({ credit: { buffers } });
  }

  close(): void {
    if (this.#done) return;
    this.#done = true;
    this.#call.cancel();
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
