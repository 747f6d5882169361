import { createRequire } from 'node:module';
import type * as KafkaLibrary from '@platformatic/kafka';

const requireHere = createRequire(import.meta.url);
/** The library bundled into one file beside the built package (scripts/build.mjs, `separateBundles`). */
const BUNDLE = './kafka-client-library.js';
let loaded: typeof KafkaLibrary | undefined;

/**
 * @platformatic/kafka, loaded on first use. Loading it takes most of a second, and every
 * TaskManager and the JobManager's job worker import this package whatever their job reads and
 * writes: only jobs that use Kafka pay for it. The built package loads the library's bundle,
 * a third of the time of its hundreds of modules; sources run by tsx or vitest have none
 * beside them and load the package. (Node 20.19+ loads an ES module through require.)
 */
export function kafkaLibrary(): typeof KafkaLibrary {
  return (loaded ??= load());
}

function load(): typeof KafkaLibrary {
  try {
    return requireHere(BUNDLE) as typeof KafkaLibrary;
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' && String((err as Error).message).includes(BUNDLE);
    if (!missing) throw err;
    return requireHere('@platformatic/kafka') as typeof KafkaLibrary;
  }
}
