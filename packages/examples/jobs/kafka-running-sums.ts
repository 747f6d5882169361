// Kafka to Kafka, exactly-once: a KafkaSource reads lines "<key> <i>", keyBy(key) keeps each
// key's running sum of i in ValueState, and a KafkaSink writes "<key> <i> <sum>" with
// DeliveryGuarantee.EXACTLY_ONCE: one Kafka transaction per checkpoint and subtask, committed
// when the checkpoint completes. A key's records are all in one input partition, in order, so
// the output is known in advance (`expectedKafkaSums`): a read_committed consumer of the
// output topic must see each line once, whatever fails.
//
//   pnpm weir run packages/examples/jobs/kafka-running-sums.ts -- <bootstrap servers> <input topic> \
//     <output topic> <transactional id prefix> [EXACTLY_ONCE|AT_LEAST_ONCE|NONE] [checkpoint ms] [discovery ms] \
//     [transaction timeout ms]
import {
  KeyedProcessFunction,
  RestartStrategies,
  Types,
  ValueStateDescriptor,
  type Collector,
  type KeyedProcessContext,
  type StreamExecutionEnvironment,
  type ValueState,
} from '@weir/api';
import { DeliveryGuarantee, KafkaRecordSerializationSchema, KafkaSink, KafkaSource, OffsetsInitializer, SimpleStringSchema } from '@weir/connectors';

type Event = { key: string; i: number };

class RunningSum extends KeyedProcessFunction<string, Event, string> {
  private state!: ValueState<number>;

  override open(): void {
    this.state = this.getRuntimeContext().getState(new ValueStateDescriptor('sum', Types.NUMBER));
  }

  processElement(event: Event, _ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    const sum = (this.state.value() ?? 0) + event.i;
    this.state.update(sum);
    out.collect(`${event.key} ${event.i} ${sum}`);
  }
}

export default function kafkaRunningSums(env: StreamExecutionEnvironment, args: string[]): void {
  const [servers, input, output, prefix, guarantee = 'EXACTLY_ONCE', interval = '1000', discovery = '1000', transactionTimeout = '120000'] = args;
  if (servers === undefined || input === undefined || output === undefined || prefix === undefined) {
    throw new Error('args: <bootstrap servers> <input topic> <output topic> <transactional id prefix> [guarantee] [checkpoint ms] [discovery ms] [transaction timeout ms]');
  }
  env.setMaxParallelism(128);
  env.enableCheckpointing(Number(interval));
  env.setRestartStrategy(RestartStrategies.fixedDelayRestart(1000, 1000));
  const source = KafkaSource.builder<string>()
    .setBootstrapServers(servers)
    .setTopics(input)
    .setGroupId(`${prefix}-group`)
    .setStartingOffsets(OffsetsInitializer.earliest())
    .setValueOnlyDeserializer(new SimpleStringSchema())
    .setProperty('partition.discovery.interval.ms', discovery)
    .build();
  const sink = KafkaSink.builder<string>()
    .setBootstrapServers(servers)
    .setRecordSerializer(KafkaRecordSerializationSchema.builder<string>().setTopic(output).setValueSerializationSchema(new SimpleStringSchema()).build())
    .setDeliveryGuarantee(guarantee as DeliveryGuarantee)
    .setTransactionalIdPrefix(prefix)
    .setProperty('transaction.timeout.ms', transactionTimeout)
    .build();
  env
    .fromSource(source, 'kafka-in')
    .uid('kafka-in')
    .map((line: string): Event => {
      const [key, i] = line.split(' ');
      return { key: key!, i: Number(i) };
    })
    .uid('parse')
    .keyBy((event: Event) => event.key)
    .process(new RunningSum())
    .uid('sums')
    .sinkTo(sink)
    .uid('kafka-out');
}
