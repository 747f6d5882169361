import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Prints every committed value of a topic, one per line, as Kafka's own Java consumer with
 * isolation.level=read_committed sees it: from the beginning of each partition to its last
 * stable offset at start. Run by the source launcher (java -cp <broker class path> ReadCommitted.java
 * <bootstrap> <topic> [keys]), so Weir's tests check Kafka output with the reference client.
 * With `keys`, each line is the key, a tab, then the value ("null" for a missing key or a tombstone).
 */
public class ReadCommitted {
  public static void main(String[] args) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (PartitionInfo info : consumer.partitionsFor(args[1], Duration.ofSeconds(30))) {
        partitions.add(new TopicPartition(info.topic(), info.partition()));
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(30));
      long deadline = System.currentTimeMillis() + 60_000;
      boolean keys = args.length > 2 && args[2].equals("keys");
      StringBuilder out = new StringBuilder();
      while (!atEnd(consumer, ends)) {
        if (System.currentTimeMillis() > deadline) throw new IllegalStateException("not at the end offsets " + ends + " within 60 s");
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
          if (keys) out.append(record.key()).append('\t');
          out.append(record.value()).append('\n');
        }
      }
      System.out.print(out);
    }
  }

  private static boolean atEnd(KafkaConsumer<String, String> consumer, Map<TopicPartition, Long> ends) {
    for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
      if (consumer.position(end.getKey()) < end.getValue()) return false;
    }
    return true;
  }
}
