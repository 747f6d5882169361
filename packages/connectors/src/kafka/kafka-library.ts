import { createRequire } from 'node:module';
import type * as KafkaLibrary from '@platformatic/kafka';

const requireHere = createRequire(import.meta.url);
let loaded: typeof KafkaLibrary | undefined;

/**
 * @platformatic/kafka, loaded on first use. Loading it takes over a second, and every
 * TaskManager and the JobManager's job worker import this package whatever their job reads and
 * writes: only jobs that use Kafka pay for it. (Node 20.19+ loads an ES module through require.)
 */
export function kafkaLibrary(): typeof KafkaLibrary {
  return (loaded ??= requireHere('@platformatic/kafka') as typeof KafkaLibrary);
}
