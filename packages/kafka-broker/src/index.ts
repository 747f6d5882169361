export { KafkaBroker, type KafkaBrokerOptions } from './broker.ts';
export { javaAvailable, kafkaClasspath } from './classpath.ts';
export { KafkaBrokerErrorCode } from './errors.ts';
export { committedEndOffsets, createTopic, initTransactionCoordinator, readTopic, produceValues, type TopicRecord } from './topic-io.ts';
export { readCommittedWithJavaClient } from './java-reader.ts';
export { copyTopicWithJavaClient, copyTopicWithNodeClient, type CopyResult } from './copy-topic.ts';
