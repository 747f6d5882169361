import { describe, expect, it } from 'vitest';
import { KafkaSource } from './kafka-source.ts';
import { SimpleStringSchema } from './schemas.ts';

describe('KafkaSource builder', () => {
  it('setTopicPattern drops the global and sticky flags, whose test() would skip every other topic', () => {
    const source = KafkaSource.builder<string>().setBootstrapServers('a:9092').setTopicPattern(/^orders-/gi).setValueOnlyDeserializer(new SimpleStringSchema()).build();
    const { pattern } = source.config.subscription as { pattern: RegExp };
    expect(pattern.flags).toBe('i');
    expect(['orders-1', 'Orders-2', 'orders-3', 'payments'].filter((t) => pattern.test(t))).toEqual(['orders-1', 'Orders-2', 'orders-3']);
  });

  it('takes max.partition.fetch.bytes (256 KiB by default) and fetch.max.bytes as byte counts', () => {
    const builder = () => KafkaSource.builder<string>().setBootstrapServers('a:9092').setTopics('t').setValueOnlyDeserializer(new SimpleStringSchema());
    expect(builder().build().config.properties['max.partition.fetch.bytes']).toBe(String(256 << 10));
    expect(builder().setProperty('max.partition.fetch.bytes', '65536').build().config.properties['max.partition.fetch.bytes']).toBe('65536');
    expect(() => builder().setProperty('max.partition.fetch.bytes', '0')).toThrow("max.partition.fetch.bytes takes a number of bytes > 0, got '0'");
    expect(() => builder().setProperty('fetch.max.bytes', 'lots')).toThrow("fetch.max.bytes takes a number of bytes > 0, got 'lots'");
  });

  it('refuses an unknown property with the nearest known key', () => {
    expect(() => KafkaSource.builder().setProperty('partition.discovery.interval', '1000')).toThrow(/did you mean partition.discovery.interval.ms\?/);
  });
});
