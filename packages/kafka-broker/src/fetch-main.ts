import { javaAvailable, kafkaClasspath } from './classpath.ts';

// `pnpm kafka:fetch`: resolves the broker's jars once, so tests do not pay for it (CI runs it first).
if (!javaAvailable()) {
  process.stderr.write('no java on the PATH: the Kafka broker needs a JDK 17 or newer; Kafka tests will be skipped\n');
} else {
  const jars = kafkaClasspath().split(':').length;
  process.stdout.write(`Kafka broker class path ready: ${jars} jars\n`);
}
