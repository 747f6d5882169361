import { afterAll, afterEach, beforeAll } from 'vitest';
import { KafkaBroker } from '@weir/kafka-broker';
import { KafkaJobHarness } from '../src/index.ts';

/**
 * The hooks every Kafka process test file registers: one broker for the file, destroyed after
 * it, and the harness whose clusters are stopped after each test. Call it inside the describe.
 */
export function kafkaSuite(): { readonly broker: KafkaBroker; readonly kafka: KafkaJobHarness } {
  let broker: KafkaBroker | undefined;
  let kafka: KafkaJobHarness | undefined;
  beforeAll(async () => {
    broker = await KafkaBroker.start();
    kafka = new KafkaJobHarness(broker);
  });
  afterEach(async () => {
    await kafka?.cleanup();
  });
  afterAll(async () => {
    await broker?.destroy();
  });
  return {
    get broker() {
      return broker!;
    },
    get kafka() {
      return kafka!;
    },
  };
}
