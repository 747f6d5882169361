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

  it('refuses an unknown property with the nearest known key', () => {
    expect(() => KafkaSource.builder().setProperty('partition.discovery.interval', '1000')).toThrow(/did you mean partition.discovery.interval.ms\?/);
  });
});
