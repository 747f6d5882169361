import { createRecord, createRecordsBatch, crc32c, Reader, readRecordsBatch } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';

// patches/@platformatic__kafka@1.35.0.patch encodes a produce request's records straight into
// one buffer: these check it against the client's own per-record encoder and decoder.
describe('the patched record batch encoder', () => {
  const messages = () =>
    Array.from({ length: 300 }, (_, i) => ({
      topic: 'out',
      partition: 0,
      key: i % 3 === 0 ? undefined : Buffer.from(`k${i}`),
      // Tombstones, empty values and values long enough for multi-byte varint lengths.
      value: i % 7 === 0 ? (null as unknown as Buffer) : Buffer.from('v'.repeat(i)),
      headers: i % 5 === 0 ? new Map([[Buffer.from('h'), Buffer.from('x'.repeat(200))]]) : new Map<Buffer, Buffer>(),
      // Timestamps before the first record's too (a negative delta).
      timestamp: 1_700_000_000_000n + BigInt(i * 1000 - 5000),
    }));

  it('writes the records the per-record encoder writes, byte for byte', () => {
    const batch = createRecordsBatch(messages(), { producerId: 7n, producerEpoch: 2, transactionalId: 'tx' }).buffer;
    const first = messages()[0]!.timestamp;
    const expected = Buffer.concat(messages().map((m, i) => createRecord(m, i, first).buffer));
    // The batch header is 61 bytes: offset, length, leader epoch, magic, CRC, attributes, ... record count.
    expect(batch.subarray(61).equals(expected)).toBe(true);
    // The CRC covers everything from the attributes on.
    expect(batch.readUInt32BE(17)).toBe(crc32c(batch.subarray(21)));
  });

  it('decodes to the records it was given', () => {
    const given = messages();
    const batch = readRecordsBatch(Reader.from(createRecordsBatch(messages(), {}).buffer));
    expect(batch.records).toHaveLength(given.length);
    batch.records.forEach((record, i) => {
      expect(record.offsetDelta).toBe(i);
      expect(batch.firstTimestamp + record.timestampDelta).toBe(given[i]!.timestamp);
      expect(record.key ?? undefined).toEqual(given[i]!.key);
      expect(record.value).toEqual(given[i]!.value);
      expect(record.headers).toEqual([...given[i]!.headers]);
    });
  });
});
