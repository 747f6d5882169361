import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { freePort, isWeirError, WeirError } from '@weir/common';
import { ManualClock } from '@weir/common/testing';
import {
  bindServer,
  createDataExchangeClient,
  createServer,
  services,
  type DataExchangeHandlers,
} from '@weir/rpc';
import { barrierEvent, PartitionRegistry, unalignedBarrierEvent, type ChannelItem, type SubpartitionId } from '@weir/runtime';
import { FakePartitions, FakeProducedPartition } from '../testing/fake-partitions.ts';
import { silentLogger } from '@weir/common/testing';
import { startDataServer, type DataServer } from './data-server.ts';
import { PeerReports } from './peer-reports.ts';
import { GrpcRemoteConnector } from './remote-connector.ts';
import { toSubscribeRequest } from './wire.ts';

const id: SubpartitionId = {
  jobId: 'job-1',
  attempt: 2,
  producerVertexId: 'producer',
  producerSubtask: 1,
  consumerVertexId: 'consumer',
  consumerInput: 0,
  consumerSubtask: 0,
};

function buffer(n: number): ChannelItem {
  return { kind: 'buffer', payload: Uint8Array.of(n, n + 1, n + 2), recordCount: n };
}

/** Collects what a consumer's listener receives. */
class Collector {
  readonly items: ChannelItem[] = [];
  readonly errors: Error[] = [];
  readonly listener = {
    onItem: (item: ChannelItem) => this.items.push(item),
    onError: (error: Error) => this.errors.push(error),
  };

  get buffers(): number {
    return this.items.filter((item) => item.kind === 'buffer').length;
  }
}

/** Lets pending I/O callbacks run, so events that should not happen get their chance to. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('DataExchange over gRPC', () => {
  let partitions: FakePartitions;
  let server: DataServer;
  let connector: GrpcRemoteConnector;
  let address: string;

  beforeEach(async () => {
    partitions = new FakePartitions();
    server = await startDataServer('127.0.0.1', 0, partitions, silentLogger());
    connector = new GrpcRemoteConnector(silentLogger());
    address = `127.0.0.1:${server.port}`;
  });

  afterEach(() => {
    connector.close();
    server.close();
  });

  it('delivers buffers and end of partition in order, only against the credit the consumer granted', async () => {
    const items = [...Array.from({ length: 10 }, (_, i) => buffer(i)), { kind: 'end-of-partition' } as const];
    partitions.serve(id, () => ({ items }));
    const consumer = new Collector();

    const subscription = connector.connect(address, id, 3, consumer.listener);
    await vi.waitFor(() => expect(consumer.buffers).toBe(3));
    await settle();
    expect(consumer.buffers).toBe(3);
    expect(partitions.subscriptions[0]!.id).toEqual(id);
    expect(partitions.subscriptions[0]!.creditsGranted).toEqual([3]);

    subscription.addCredit(2);
    await vi.waitFor(() => expect(consumer.buffers).toBe(5));
    await settle();
    expect(consumer.buffers).toBe(5);
    expect(partitions.subscriptions[0]!.creditsGranted).toEqual([3, 2]);

    subscription.addCredit(10);
    await vi.waitFor(() => expect(consumer.items).toHaveLength(11));
    const received = consumer.items.map((item) =>
      item.kind === 'buffer' ? { ...item, payload: Array.from(item.payload) } : item,
    );
    const sent = items.map((item) => (item.kind === 'buffer' ? { ...item, payload: Array.from(item.payload) } : item));
    expect(received).toEqual(sent);
    expect(partitions.subscriptions[0]!.creditsGranted).toEqual([3, 2, 10]);
    expect(partitions.subscriptions[0]!.buffersSent).toBe(10);
    await vi.waitFor(() => expect(partitions.subscriptions[0]!.closed).toBe(true));
    subscription.close();
    await settle();
    expect(consumer.errors).toEqual([]);
  });

  it('delivers barriers (with their options and unaligned flag), cancellation markers and end of data in order with the buffers, needing no credit', async () => {
    const items: ChannelItem[] = [
      buffer(0),
      barrierEvent(1, 1_700_000_000_123),
      buffer(1),
      { kind: 'cancel-checkpoint', checkpointId: 1 },
      unalignedBarrierEvent(2, 1_700_000_001_000),
      { kind: 'end-of-data' },
      barrierEvent(3, 1_700_000_002_000, { type: 'savepoint', terminate: 'drain', targetLocation: 's3://b/savepoints/sp-1' }),
      { kind: 'end-of-partition' },
    ];
    partitions.serve(id, () => ({ items }));
    const consumer = new Collector();
    const subscription = connector.connect(address, id, 1, consumer.listener);
    await vi.waitFor(() => expect(consumer.items).toHaveLength(2));
    await settle();
    expect(consumer.items.map((item) => item.kind)).toEqual(['buffer', 'barrier']);
    subscription.addCredit(1);
    await vi.waitFor(() => expect(consumer.items).toHaveLength(items.length));
    const plain = (item: ChannelItem) => (item.kind === 'buffer' ? { ...item, payload: Array.from(item.payload) } : item);
    expect(consumer.items.map(plain)).toEqual(items.map(plain));
    expect(partitions.subscriptions[0]!.creditsGranted).toEqual([1, 1]);
    await vi.waitFor(() => expect(partitions.subscriptions[0]!.closed).toBe(true));
    subscription.close();
    await settle();
    expect(consumer.errors).toEqual([]);
  });

  it('stops the producer when the consumer closes, and tells the consumer nothing after', async () => {
    partitions.serve(id, () => ({ items: Array.from({ length: 100 }, (_, i) => buffer(i)) }));
    const consumer = new Collector();

    const subscription = connector.connect(address, id, 2, consumer.listener);
    await vi.waitFor(() => expect(consumer.buffers).toBe(2));
    subscription.close();
    await vi.waitFor(() => expect(partitions.subscriptions[0]!.closed).toBe(true));
    subscription.addCredit(50);
    await settle();
    expect(partitions.subscriptions[0]!.creditsGranted).toEqual([2]);
    expect(consumer.buffers).toBe(2);
    expect(consumer.errors).toEqual([]);
  });

  it('fails the consumer once when the producing server shuts down', async () => {
    partitions.serve(id, () => ({ items: Array.from({ length: 100 }, (_, i) => buffer(i)) }));
    const consumer = new Collector();

    const subscription = connector.connect(address, id, 1, consumer.listener);
    await vi.waitFor(() => expect(consumer.buffers).toBe(1));
    server.close();
    await vi.waitFor(() => expect(consumer.errors).toHaveLength(1));
    expect(isWeirError(consumer.errors[0], 'UNAVAILABLE')).toBe(true);
    subscription.addCredit(1);
    subscription.close();
    await settle();
    expect(consumer.errors).toHaveLength(1);
    expect(partitions.subscriptions[0]!.closed).toBe(true);
  });

  it('reports a peer that cannot be reached once, however many channels to it break, and not a producer error', async () => {
    const reports: string[] = [];
    const reporting = new GrpcRemoteConnector(silentLogger(), { peers: new PeerReports(silentLogger(), (peer, cause) => reports.push(`${peer}: ${cause}`), Date.now) });
    partitions.serve(id, () => ({ items: [buffer(1)], failWith: new WeirError('PARTITION_RELEASED', 'partition released') }));
    const failed = new Collector();
    reporting.connect(address, id, 4, failed.listener);
    await vi.waitFor(() => expect(failed.errors).toHaveLength(1));
    const gone = `127.0.0.1:${await freePort()}`;
    const consumers = [new Collector(), new Collector()];
    for (const [i, consumer] of consumers.entries()) reporting.connect(gone, { ...id, consumerSubtask: i }, 4, consumer.listener);
    await vi.waitFor(() => expect(consumers.map((c) => c.errors.length)).toEqual([1, 1]));
    reporting.close();
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(new RegExp(`^${gone}: cannot reach the peer at ${gone}: `));
  });

  it('reports a consumer whose call breaks while it is served, by the address it sent, and not one that closed its subscription', async () => {
    const reports: string[] = [];
    const reporting = await startDataServer('127.0.0.1', 0, partitions, silentLogger(), (consumer, cause) => reports.push(`${consumer}: ${cause}`));
    const serverAddress = `127.0.0.1:${reporting.port}`;
    const other = { ...id, consumerSubtask: 1 };
    partitions.serve(id, () => ({ items: [buffer(1)] }));
    partitions.serve(other, () => ({ items: [buffer(2)] }));
    const consumerSide = new GrpcRemoteConnector(silentLogger(), { ownDataAddress: 'done-tm:7000' });
    const client = createDataExchangeClient(serverAddress);
    try {
      const done = new Collector();
      const subscription = consumerSide.connect(serverAddress, id, 4, done.listener);
      await vi.waitFor(() => expect(done.buffers).toBe(1));
      subscription.close();
      await vi.waitFor(() => expect(partitions.subscriptions[0]!.closed).toBe(true));
      // Cut off as the server's keepalive cuts a hung consumer's call, or as a dead one's connection ends.
      const call = client.Subscribe();
      call.on('error', () => {});
      call.write({ subscribe: toSubscribeRequest(other, 4, 'hung-tm:7001') });
      await vi.waitFor(() => expect(partitions.subscriptions).toHaveLength(2));
      call.cancel();
      await vi.waitFor(() => expect(partitions.subscriptions[1]!.closed).toBe(true));
      await settle();
      expect(done.errors).toEqual([]);
      expect(reports).toEqual([
        'hung-tm:7001: the call of its consumer of subpartition producer[1] -> consumer[1] of job job-1 attempt 2 broke (no answer to keepalive pings, or the connection went away)',
      ]);
    } finally {
      client.close();
      consumerSide.close();
      reporting.close();
    }
  });

  it('passes a producer error to the consumer with its code', async () => {
    partitions.serve(id, () => ({
      items: [buffer(1)],
      failWith: new WeirError('PARTITION_RELEASED', 'partition released: the producing task was cancelled'),
    }));
    const consumer = new Collector();

    connector.connect(address, id, 4, consumer.listener);
    await vi.waitFor(() => expect(consumer.errors).toHaveLength(1));
    expect(consumer.buffers).toBe(1);
    expect(isWeirError(consumer.errors[0], 'PARTITION_RELEASED')).toBe(true);
    expect(consumer.errors[0]!.message).toBe('partition released: the producing task was cancelled');
  });

  it('fails a subscription the provider does not know, without items', async () => {
    const consumer = new Collector();
    connector.connect(address, { ...id, producerSubtask: 7 }, 4, consumer.listener);
    await vi.waitFor(() => expect(consumer.errors).toHaveLength(1));
    expect(consumer.errors[0]!.message).toBe('no partition job-1/2/producer/7/consumer/0');
    expect(consumer.items).toEqual([]);
  });

  it('reports a producer stream that ends cleanly before end of partition', async () => {
    const raw = createServer(1024 ** 2);
    const handlers: DataExchangeHandlers = {
      Subscribe(call) {
        call.once('data', () => {
          call.write({ buffer: { payload: Uint8Array.of(9), recordCount: 1 } });
          call.end();
        });
      },
    };
    raw.addService(services.DataExchange, handlers);
    const port = await bindServer(raw, '127.0.0.1', 0);
    const consumer = new Collector();
    try {
      connector.connect(`127.0.0.1:${port}`, id, 4, consumer.listener);
      await vi.waitFor(() => expect(consumer.errors).toHaveLength(1));
    } finally {
      raw.forceShutdown();
    }
    expect(consumer.buffers).toBe(1);
    expect(isWeirError(consumer.errors[0], 'PRODUCER_STREAM_ENDED')).toBe(true);
    expect(consumer.errors[0]!.message).toBe(
      `the producer at 127.0.0.1:${port} ended subpartition producer[1] -> consumer[0] of job job-1 attempt 2 before end of partition`,
    );
  });

  it('rejects a call whose first message is not subscribe', async () => {
    const client = createDataExchangeClient(address);
    const call = client.Subscribe();
    const error = await new Promise<Error>((resolve) => {
      call.on('error', resolve);
      call.write({ credit: { buffers: 1 } });
    });
    client.close();
    expect(error.message).toContain('expected a first message `subscribe`, got credit');
    expect(partitions.subscriptions).toEqual([]);
  });
});

describe('DataExchange over gRPC with the runtime PartitionRegistry', () => {
  it('waits for a producer that registers later, serves it against credit, and fails the consumer when the attempt is released', async () => {
    const registry = new PartitionRegistry({ clock: new ManualClock() });
    const server = await startDataServer('127.0.0.1', 0, registry, silentLogger());
    const connector = new GrpcRemoteConnector(silentLogger());
    try {
      const consumer = new Collector();
      const subscription = connector.connect(`127.0.0.1:${server.port}`, id, 2, consumer.listener);
      await settle();
      expect(consumer.items).toEqual([]);

      const partitionId = {
        jobId: id.jobId,
        attempt: id.attempt,
        producerVertexId: id.producerVertexId,
        producerSubtask: id.producerSubtask,
        consumerVertexId: id.consumerVertexId,
        consumerInput: id.consumerInput,
      };
      const produced = new FakeProducedPartition(partitionId, () => ({ items: Array.from({ length: 5 }, (_, i) => buffer(i)) }));
      registry.register(produced);
      await vi.waitFor(() => expect(consumer.buffers).toBe(2));
      subscription.addCredit(3);
      await vi.waitFor(() => expect(consumer.buffers).toBe(5));
      expect(produced.subscriptions.map((s) => [s.id.consumerSubtask, s.creditsGranted])).toEqual([[0, [2, 3]]]);

      registry.releaseAttempt('job-1', 2);
      await vi.waitFor(() => expect(consumer.errors).toHaveLength(1));
      expect(isWeirError(consumer.errors[0], 'PARTITION_RELEASED')).toBe(true);
      expect(consumer.errors[0]!.message).toBe(
        'the partitions of job job-1 attempt 2 were released: the attempt ended on this TaskManager',
      );
    } finally {
      connector.close();
      server.close();
    }
  });
});
