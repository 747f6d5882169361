import { describe, expect, it } from 'vitest';
import { KafkaRecordSerializationSchema } from './kafka-record-serialization-schema.ts';
import { SimpleStringSchema } from './schemas.ts';

const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : Buffer.from(bytes).toString());

describe('KafkaRecordSerializationSchema', () => {
  it('serializes key, value, partition and headers (pairs keep a repeated key, strings become UTF-8)', () => {
    const schema = KafkaRecordSerializationSchema.builder<string>()
      .setTopic('out')
      .setValueSerializationSchema(new SimpleStringSchema())
      .setKeySerializationSchema({ serialize: (s) => Buffer.from(s.slice(0, 1)) })
      .setPartitioner(() => 3)
      .setHeaderProvider((s) => [['source', 'weir'], ['trace', Buffer.from([1, 2])], ['source', s]])
      .build();
    const record = schema.serialize('abc');
    expect([record.topic, text(record.key), text(record.value!), record.partition]).toEqual(['out', 'a', 'abc', 3]);
    expect(record.headers!.map(([k, v]) => [k, [...v]])).toEqual([['source', [...Buffer.from('weir')]], ['trace', [1, 2]], ['source', [...Buffer.from('abc')]]]);
  });

  it('takes headers as an object too, and refuses a value that is no string or bytes', () => {
    const build = (headers: (s: string) => Record<string, string>) =>
      KafkaRecordSerializationSchema.builder<string>().setTopic('out').setValueSerializationSchema(new SimpleStringSchema()).setHeaderProvider(headers).build();
    expect(build((s) => ({ len: String(s.length) })).serialize('abc').headers!.map(([k, v]) => [k, text(v)])).toEqual([['len', '3']]);
    expect(() => build(() => ({ n: 1 as unknown as string })).serialize('abc')).toThrow(/a header provider returns string keys with string or Uint8Array values, got \["n","number"\]/);
  });
});
