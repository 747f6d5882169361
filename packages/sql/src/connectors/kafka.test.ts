import { describe, expect, it } from 'vitest';
import { StreamExecutionEnvironment } from '@weir/api';
import type { KafkaConsumerRecord } from '@weir/connectors';
import { parseStatement } from '../parse/parser.ts';
import type { CreateTable } from '../parse/ast.ts';
import type { Row } from '../row.ts';
import { StreamTableEnvironment } from '../table-environment.ts';
import { tableFromDdl } from '../validate/ddl.ts';
import { kafkaTableSink, kafkaTableSource } from './kafka.ts';

const ORDERS = `CREATE TABLE orders (
  id BIGINT, customer STRING, amount DECIMAL(10, 2),
  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  \`partition\` INT METADATA VIRTUAL,
  \`offset\` BIGINT METADATA VIRTUAL,
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'kafka', 'topic' = 'orders', 'properties.bootstrap.servers' = 'localhost:9092', 'properties.group.id' = 'g',
  'scan.startup.mode' = 'earliest-offset', 'format' = 'json')`;
const TOTALS = `CREATE TABLE totals (customer STRING, orders BIGINT, total DECIMAL(38, 2), PRIMARY KEY (customer) NOT ENFORCED)
  WITH ('connector' = 'upsert-kafka', 'topic' = 'totals', 'properties.bootstrap.servers' = 'localhost:9092',
  'key.format' = 'json', 'value.format' = 'json', 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = 'totals')`;
const AGGREGATE = 'INSERT INTO totals SELECT customer, COUNT(*), SUM(amount) FROM orders GROUP BY customer';

const table = (ddl: string) => tableFromDdl(parseStatement(ddl) as CreateTable);
const bytes = (text: string) => Buffer.from(text, 'utf8');
const record = (key: string | null, value: string | null, offset = 7): KafkaConsumerRecord => ({
  topic: 't', partition: 1, offset, timestamp: 1_700_000_000_123, key: key === null ? null : bytes(key), value: value === null ? null : bytes(value), headers: [],
});

/** What a table's KafkaSource emits for one record. */
function read(ddl: string, r: KafkaConsumerRecord): Array<{ kind: string; fields: unknown[] }> {
  const out: Array<{ kind: string; fields: unknown[] }> = [];
  kafkaTableSource(table(ddl)).config.deserializer.deserialize(r, { collect: (v: { kind: string; fields: unknown[] }) => void out.push(v) } as never);
  return out;
}

/** What a table's KafkaSink writes for one row: key and value as text (null: none / tombstone). */
function write(ddl: string, row: Row): { key: string | null; value: string | null; timestamp?: number } {
  const r = kafkaTableSink(table(ddl)).config.serializer.serialize(row);
  const text = (b: Uint8Array | null | undefined) => (b === null || b === undefined ? null : Buffer.from(b).toString('utf8'));
  return { key: text(r.key), value: text(r.value), ...(r.timestamp === undefined ? {} : { timestamp: r.timestamp }) };
}

function planWith(...ddls: string[]): StreamTableEnvironment {
  const tEnv = StreamTableEnvironment.create(new StreamExecutionEnvironment());
  for (const ddl of ddls) tEnv.executeSql(ddl);
  return tEnv;
}

describe('kafka and upsert-kafka tables', () => {
  it('a kafka record as a row: the value in its format, then the metadata columns; tombstones skipped', () => {
    expect(read(ORDERS, record(null, '{"id":1,"customer":"ann","amount":12.5}'))).toEqual([{ kind: '+U', fields: [1, 'ann', 1250n, 1_700_000_000_123, 1, 7] }]);
    expect(read(ORDERS, record('k', null))).toEqual([]);
    const csv = ORDERS.replace("'format' = 'json'", "'format' = 'csv'");
    expect(read(csv, record(null, '2,"b, c",3'))[0]!.fields).toEqual([2, 'b, c', 300n, 1_700_000_000_123, 1, 7]);
    const raw = "CREATE TABLE lines (line STRING) WITH ('connector' = 'kafka', 'topic' = 'l', 'properties.bootstrap.servers' = 'h:1', 'format' = 'raw')";
    expect(read(raw, record(null, 'any text, "as is"'))[0]!.fields).toEqual(['any text, "as is"']);
  });

  it('upsert-kafka: the key holds the primary key, the value the row; a tombstone is a -D of the key', () => {
    expect(read(TOTALS, record('{"customer":"ann"}', '{"customer":"ann","orders":2,"total":20.5}'))).toEqual([{ kind: '+U', fields: ['ann', 2, 2050n] }]);
    expect(read(TOTALS, record('{"customer":"ann"}', null))).toEqual([{ kind: '-D', fields: ['ann', null, null] }]);
    expect(write(TOTALS, { kind: '+I', fields: ['ann', 2, 2050n] })).toEqual({ key: '{"customer":"ann"}', value: '{"customer":"ann","orders":2,"total":20.50}' });
    expect(write(TOTALS, { kind: '+U', fields: ['ann', 3, 2100n] })).toEqual({ key: '{"customer":"ann"}', value: '{"customer":"ann","orders":3,"total":21.00}' });
    expect(write(TOTALS, { kind: '-D', fields: ['ann', 3, 2100n] })).toEqual({ key: '{"customer":"ann"}', value: null });
    const exceptKey = TOTALS.replace("'value.format' = 'json'", "'value.format' = 'csv', 'value.fields-include' = 'EXCEPT_KEY'");
    expect(write(exceptKey, { kind: '+I', fields: ['ann', 2, 2050n] })).toEqual({ key: '{"customer":"ann"}', value: '2,20.50' });
    expect(read(exceptKey, record('{"customer":"bo"}', '4,1.00'))[0]!.fields).toEqual(['bo', 4, 100n]);
  });

  it('a kafka sink writes the timestamp metadata column as the record timestamp', () => {
    const sink = "CREATE TABLE stamped (id BIGINT, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', `offset` BIGINT METADATA VIRTUAL) WITH ('connector' = 'kafka', 'topic' = 'o', 'properties.bootstrap.servers' = 'h:1', 'format' = 'csv')";
    expect(write(sink, { kind: '+I', fields: [5, 1_700_000_000_000] })).toEqual({ key: null, value: '5', timestamp: 1_700_000_000_000 });
  });

  it('an aggregation from kafka into upsert-kafka plans as a retract changelog the upsert sink takes; DESCRIBE shows metadata columns', () => {
    const tEnv = planWith(ORDERS, TOTALS);
    expect(tEnv.executeSql(`EXPLAIN ${AGGREGATE}`).toString()).toContain('GroupAggregate(groupBy=[customer], select=[customer, COUNT(*) AS EXPR$0, SUM($f1) AS EXPR$1]), changelogMode=[I,UB,UA,D]');
    expect(tEnv.executeSql(AGGREGATE).toString()).toBe('OK');
    expect(tEnv.executeSql('DESCRIBE orders').rows.map((r) => [r[0], r[4]])).toEqual([
      ['id', ''],
      ['customer', ''],
      ['amount', ''],
      ['ts', "METADATA FROM 'timestamp'"],
      ['partition', 'METADATA VIRTUAL'],
      ['offset', 'METADATA VIRTUAL'],
    ]);
    // An upsert-kafka table read back is a changelog: an aggregate over it needs retraction.
    expect(tEnv.sqlQuery('SELECT customer, orders FROM totals').explain()).toContain('TableSourceScan(table=[[default_catalog, default_database, totals]], fields=[customer, orders, total]), changelogMode=[I,UB,UA,D]');
    // Aggregates over updates: of an upsert table, and of another aggregate (customers per order count).
    expect(tEnv.sqlQuery('SELECT orders, COUNT(*) AS customers, MAX(total) AS biggest FROM totals GROUP BY orders').explain()).toContain(
      'GroupAggregate(groupBy=[orders], select=[orders, COUNT(*) AS EXPR$0, MAX($f1) AS EXPR$1]), changelogMode=[I,UB,UA,D]',
    );
    expect(tEnv.sqlQuery('SELECT n, COUNT(*) FROM (SELECT customer, COUNT(*) AS n FROM orders GROUP BY customer) GROUP BY n').explain()).toMatch(/GroupAggregate\(groupBy=\[n\].*changelogMode=\[I,UB,UA,D\]\n.*\n\s*GroupAggregate\(groupBy=\[customer\]/);
  });

  it('refuses before anything runs: an updating query into kafka, upsert-kafka without a key, unknown or read-only metadata, exactly-once without a prefix', () => {
    const tEnv = planWith(ORDERS, TOTALS);
    tEnv.executeSql("CREATE TABLE appendOnly (customer STRING, orders BIGINT, total DECIMAL(38, 2)) WITH ('connector' = 'kafka', 'topic' = 'a', 'properties.bootstrap.servers' = 'h:1', 'format' = 'json')");
    expect(() => tEnv.executeSql(AGGREGATE.replace('totals', 'appendOnly'))).toThrow(/Table sink 'default_catalog.default_database.appendOnly' \(connector 'kafka'\) doesn't support consuming update changes which is produced by node GroupAggregate/);
    tEnv.executeSql("CREATE TABLE nokey (customer STRING, orders BIGINT, total DECIMAL(38, 2)) WITH ('connector' = 'upsert-kafka', 'topic' = 'a', 'properties.bootstrap.servers' = 'h:1', 'key.format' = 'json', 'value.format' = 'json')");
    expect(() => tEnv.executeSql(AGGREGATE.replace('totals', 'nokey'))).toThrow("Table 'nokey': 'upsert-kafka' tables require to define a PRIMARY KEY constraint");
    tEnv.executeSql("CREATE TABLE typo (id BIGINT, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamps') WITH ('connector' = 'kafka', 'topic' = 'a', 'properties.bootstrap.servers' = 'h:1', 'format' = 'json')");
    expect(() => tEnv.sqlQuery('SELECT id FROM typo')).toThrow("Invalid metadata key 'timestamps' in column 'ts' of table 'typo': connector 'kafka' offers 'topic', 'partition', 'offset', 'timestamp'; did you mean 'timestamp'?");
    tEnv.executeSql("CREATE TABLE readOnly (id BIGINT, `offset` BIGINT METADATA) WITH ('connector' = 'kafka', 'topic' = 'a', 'properties.bootstrap.servers' = 'h:1', 'format' = 'json')");
    expect(() => tEnv.executeSql('INSERT INTO readOnly SELECT id, id FROM orders')).toThrow("Metadata 'offset' of connector 'kafka' can only be read: declare column 'offset' of table 'readOnly' as METADATA VIRTUAL to write to the table");
    tEnv.executeSql("CREATE TABLE noPrefix (id BIGINT) WITH ('connector' = 'kafka', 'topic' = 'a', 'properties.bootstrap.servers' = 'h:1', 'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once')");
    expect(() => tEnv.executeSql('INSERT INTO noPrefix SELECT id FROM orders')).toThrow("needs the option 'sink.transactional-id-prefix'");
    tEnv.executeSql("CREATE TABLE badProp (id BIGINT) WITH ('connector' = 'kafka', 'topic' = 'a', 'properties.bootstrap.servers' = 'h:1', 'format' = 'json', 'properties.max.poll.records' = '5')");
    expect(() => tEnv.executeSql('INSERT INTO badProp SELECT id FROM orders')).toThrow("Weir's Kafka client has no property 'max.poll.records'");
  });
});
