import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { kafkaClasspath } from './classpath.ts';

const SOURCE = join(dirname(fileURLToPath(import.meta.url)), '..', 'java', 'ReadCommitted.java');

/**
 * Every committed value of `topic` up to its last stable offset, read by Kafka's own Java
 * consumer (kafka-clients from the broker's class path) with isolation.level=read_committed:
 * the reference client, which shares no code with Weir's, for checking exactly-once output.
 * `withKeys`: each line is the record's key, a tab, then its value (an upsert topic's contents).
 */
export async function readCommittedWithJavaClient(bootstrapServers: string, topic: string, withKeys = false): Promise<string[]> {
  const { stdout } = await promisify(execFile)('java', ['-cp', kafkaClasspath(), SOURCE, bootstrapServers, topic, ...(withKeys ? ['keys'] : [])], {
    maxBuffer: 256 << 20,
    timeout: 120_000,
  });
  return stdout === '' ? [] : stdout.replace(/\n$/, '').split('\n');
}
