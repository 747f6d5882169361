/**
 * A Flink SQL job from Kafka to Kafka, and what its output must be, computed without the SQL
 * engine: orders (json values, order i of customer c<i % 13> for (i % 50) + 0.25) summed per
 * customer by an unbounded GROUP BY into an upsert-kafka table, exactly-once.
 */

export const CUSTOMERS = 13;

/** Order i as the JSON value the test produces. */
export function orderValue(i: number): string {
  return `{"id":${i},"customer":"c${i % CUSTOMERS}","amount":${i % 50}.25}`;
}

/** args: bootstrap servers, orders topic, totals topic, checkpoint interval ms, checkpoint dir, parallelism */
export const SQL_KAFKA_JOB = `
import { CheckpointingMode, FsStateBackend, type StreamExecutionEnvironment } from '@weir/api';
import { StreamTableEnvironment } from '@weir/sql';

export default function sqlKafkaJob(env: StreamExecutionEnvironment, args: string[]) {
  const [servers, ordersTopic, totalsTopic, interval, checkpointDir, parallelism] = args;
  env.setParallelism(Number(parallelism));
  env.enableCheckpointing(Number(interval));
  env.getCheckpointConfig().setCheckpointingMode(CheckpointingMode.EXACTLY_ONCE);
  env.setStateBackend(new FsStateBackend(checkpointDir));
  const tEnv = StreamTableEnvironment.create(env);
  tEnv.executeSql(\`
    CREATE TABLE orders (
      id BIGINT,
      customer STRING,
      amount DECIMAL(10, 2),
      ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
      \\\`partition\\\` INT METADATA VIRTUAL,
      \\\`offset\\\` BIGINT METADATA VIRTUAL
    ) WITH (
      'connector' = 'kafka',
      'topic' = '\${ordersTopic}',
      'properties.bootstrap.servers' = '\${servers}',
      'properties.group.id' = 'sql-orders',
      'scan.startup.mode' = 'earliest-offset',
      'format' = 'json'
    )\`);
  tEnv.executeSql(\`
    CREATE TABLE totals (
      customer STRING,
      orders BIGINT,
      total DECIMAL(38, 2),
      last_offset BIGINT,
      PRIMARY KEY (customer) NOT ENFORCED
    ) WITH (
      'connector' = 'upsert-kafka',
      'topic' = '\${totalsTopic}',
      'properties.bootstrap.servers' = '\${servers}',
      'key.format' = 'json',
      'value.format' = 'json',
      'sink.delivery-guarantee' = 'exactly-once',
      'sink.transactional-id-prefix' = 'sql-totals'
    )\`);
  tEnv.executeSql(\`
    INSERT INTO totals
    SELECT customer, COUNT(*), SUM(amount), MAX(\\\`offset\\\`)
    FROM orders
    WHERE \\\`partition\\\` >= 0 AND ts IS NOT NULL
    GROUP BY customer\`);
}
`;

/** The final row of each customer after orders 0..n-1: `c3 -> orders,total` (total exact, in cents). */
export function expectedTotals(n: number): Map<string, string> {
  const totals = new Map<string, { orders: number; cents: number }>();
  for (let i = 0; i < n; i++) {
    const t = totals.get(`c${i % CUSTOMERS}`) ?? { orders: 0, cents: 0 };
    totals.set(`c${i % CUSTOMERS}`, { orders: t.orders + 1, cents: t.cents + (i % 50) * 100 + 25 });
  }
  return new Map([...totals].map(([c, t]) => [c, `${t.orders},${Math.floor(t.cents / 100)}.${String(t.cents % 100).padStart(2, '0')}`]));
}

/**
 * An upsert topic's committed records (`key \\t value`, in each partition's order) checked as a
 * changelog: every key's records must count its orders 1, 2, 3, ... with none missing or twice
 * (an exactly-once sink commits each update once), and the last one is the key's row.
 */
export function replayUpserts(lines: readonly string[]): { rows: Map<string, string>; problems: string[] } {
  const rows = new Map<string, string>();
  const counts = new Map<string, number>();
  const problems: string[] = [];
  for (const line of lines) {
    const [key, value] = line.split('\t') as [string, string];
    const customer = /^\{"customer":"(c\d+)"\}$/.exec(key)?.[1];
    const match = /^\{"customer":"(c\d+)","orders":(\d+),"total":(\d+\.\d\d),"last_offset":\d+\}$/.exec(value);
    if (customer === undefined || match === null || match[1] !== customer) {
      problems.push(`malformed: ${line}`);
      continue;
    }
    const orders = Number(match[2]);
    const before = counts.get(customer) ?? 0;
    if (orders !== before + 1) problems.push(`${customer}: ${orders} orders after ${before}`);
    counts.set(customer, orders);
    rows.set(customer, `${orders},${match[3]}`);
  }
  return { rows, problems };
}
