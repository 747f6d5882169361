import type { Consumer, RecordsBatch } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import { PartitionFetcher, type FetchTarget } from './partition-fetcher.ts';

function batch(firstOffset: number, values: string[], headers: [Buffer, Buffer][] = []): RecordsBatch {
  return {
    firstOffset: BigInt(firstOffset),
    lastOffsetDelta: values.length - 1,
    attributes: 0,
    firstTimestamp: 1_000n,
    producerId: -1n,
    records: values.map((value, i) => ({ offsetDelta: i, timestampDelta: BigInt(i), key: null, value: Buffer.from(value), headers })),
  } as unknown as RecordsBatch;
}

/** A client whose one broker (node 1) leads partitions 0 and 1 of topic t and answers every fetch with `partitions`. */
function client(partitions: { partitionIndex: number; records: RecordsBatch[] }[]): { client: Consumer; requests: unknown[] } {
  const requests: unknown[] = [];
  const fake = {
    metadata: async () => ({ topics: new Map([['t', { id: 'topic-id', partitions: [{ leader: 1 }, { leader: 1 }] }]]) }),
    fetch: async (request: unknown) => {
      requests.push(request);
      return { responses: [{ topicId: 'topic-id', partitions: partitions.map((p) => ({ ...p, errorCode: 0, abortedTransactions: [] })) }] };
    },
  };
  return { client: fake as unknown as Consumer, requests };
}

function target(partition: number, fetchOffset: number): FetchTarget {
  return { splitId: `t-${partition}`, topic: 't', partition, fetchOffset, stoppingOffset: undefined };
}

describe('PartitionFetcher', () => {
  it('returns the records of each partition as one run, in offset order, and moves each fetch offset past them', async () => {
    const { client: consumer } = client([
      { partitionIndex: 0, records: [batch(10, ['a', 'b']), batch(12, ['c'])] },
      { partitionIndex: 1, records: [batch(3, ['x'])] },
    ]);
    const fetcher = new PartitionFetcher(consumer, { bootstrapServers: ['b:9092'], clientId: 'test' }, true, 1 << 20, 1 << 20);
    const targets = [target(0, 11), target(1, 3)];
    const { runs, reachedEnd } = await fetcher.fetch(targets, 100);
    expect(runs.map((r) => [r.target.splitId, r.records.map((rec) => `${rec.offset}:${Buffer.from(rec.value!).toString()}@${rec.timestamp}`)])).toEqual([
      ['t-0', ['11:b@1001', '12:c@1000']],
      ['t-1', ['3:x@1000']],
    ]);
    expect(targets.map((t) => t.fetchOffset)).toEqual([13, 4]);
    expect(reachedEnd).toEqual([]);
  });

  it('asks for at most max.partition.fetch.bytes per partition, within fetch.max.bytes', async () => {
    const { client: consumer, requests } = client([]);
    await new PartitionFetcher(consumer, { bootstrapServers: ['b:9092'], clientId: 'test' }, true, 8 << 20, 1 << 20).fetch([target(0, 0)], 100);
    await new PartitionFetcher(consumer, { bootstrapServers: ['b:9092'], clientId: 'test' }, true, 4096, 1 << 20).fetch([target(0, 0)], 100);
    await new PartitionFetcher(consumer, { bootstrapServers: ['b:9092'], clientId: 'test' }, true, 8 << 20, 256 << 10).fetch([target(0, 0)], 100);
    const limits = requests.map((r) => {
      const { maxBytes, topics } = r as { maxBytes: number; topics: { partitions: { partitionMaxBytes: number }[] }[] };
      return [maxBytes, topics[0]!.partitions[0]!.partitionMaxBytes];
    });
    expect(limits).toEqual([
      [8 << 20, 1 << 20],
      [4096, 4096],
      [8 << 20, 256 << 10],
    ]);
  });

  it('keeps headers, and gives records without any the same empty list', async () => {
    const { client: consumer } = client([{ partitionIndex: 0, records: [batch(0, ['a', 'b']), batch(2, ['c'], [[Buffer.from('h'), Buffer.from('v')]])] }]);
    const { runs } = await new PartitionFetcher(consumer, { bootstrapServers: ['b:9092'], clientId: 'test' }, true, 1 << 20, 1 << 20).fetch([target(0, 0)], 100);
    const [a, b, c] = runs[0]!.records;
    expect(a!.headers).toEqual([]);
    expect(a!.headers).toBe(b!.headers);
    expect(c!.headers.map(([k, v]) => [k, Buffer.from(v!).toString()])).toEqual([['h', 'v']]);
  });
});
