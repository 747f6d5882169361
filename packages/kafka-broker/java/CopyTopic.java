import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Copies every record of a topic (up to its end offsets at start) to another topic with Kafka's
 * own Java clients, on one thread, with the clients' defaults (read_committed consumer; an
 * idempotent producer, acks=all), then prints "<records> <elapsed ms> <process CPU ns>": the
 * broker's ceiling for a consume-produce copy here, which `pnpm bench kafka` compares Weir with.
 * Timed from before the first metadata request to the producer's flush, so the JVM's start and
 * this file's compilation are not counted. Args: <bootstrap> <from topic> <to topic>.
 */
public class CopyTopic {
  public static void main(String[] args) throws Exception {
    com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    Properties consumerProps = new Properties();
    consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
    consumerProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    consumerProps.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    consumerProps.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    Properties producerProps = new Properties();
    producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
    producerProps.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    producerProps.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    AtomicReference<Exception> failure = new AtomicReference<>();
    long cpuStart = os.getProcessCpuTime();
    long start = System.nanoTime();
    long copied = 0;
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProps);
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProps)) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (PartitionInfo info : consumer.partitionsFor(args[1], Duration.ofSeconds(30))) {
        partitions.add(new TopicPartition(info.topic(), info.partition()));
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(30));
      long deadline = System.currentTimeMillis() + 600_000;
      while (!atEnd(consumer, ends)) {
        if (System.currentTimeMillis() > deadline) throw new IllegalStateException("not at the end offsets " + ends + " within 600 s");
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          producer.send(new ProducerRecord<>(args[2], record.key(), record.value()), (metadata, e) -> {
            if (e != null) failure.compareAndSet(null, e);
          });
          copied++;
        }
      }
      producer.flush();
    }
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    if (failure.get() != null) throw failure.get();
    System.out.println(copied + " " + elapsedMs + " " + (os.getProcessCpuTime() - cpuStart));
  }

  private static boolean atEnd(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> ends) {
    for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
      if (consumer.position(end.getKey()) < end.getValue()) return false;
    }
    return true;
  }
}
