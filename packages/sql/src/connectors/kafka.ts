import { DeliveryGuarantee, KafkaRecordSerializationSchema, KafkaSink, KafkaSource, OffsetsInitializer, type KafkaConsumerRecord, type KafkaSourceBuilder } from '@weir/connectors';
import { SqlError, SqlErrorCode } from '../errors.ts';
import type { Field } from '../logical/rex.ts';
import type { Row, RowKind } from '../row.ts';
import { keyString } from '../translate/keys.ts';
import { metadataColumns, sinkColumns, type CatalogColumn, type CatalogTable } from '../validate/catalog.ts';
import { requireOption, type MetadataKey, type TableFactory } from './factory.ts';
import { lineFormatOf, type LineFormat } from './formats.ts';

/** Kafka's record metadata as Flink's Kafka connectors name it; only the timestamp can be written. */
const METADATA: Readonly<Record<string, MetadataKey>> = {
  topic: { types: ['STRING'], writable: false },
  partition: { types: ['INT'], writable: false },
  offset: { types: ['BIGINT'], writable: false },
  timestamp: { types: ['TIMESTAMP_LTZ', 'TIMESTAMP'], writable: true },
};

/** `properties.<key>` options the KafkaSource and the KafkaSink take (besides bootstrap.servers and group.id). */
const SOURCE_PROPERTIES = ['partition.discovery.interval.ms', 'isolation.level', 'commit.offsets.on.checkpoint', 'unreachable.timeout.ms', 'fetch.max.bytes', 'client.id.prefix'];
const SINK_PROPERTIES = ['transaction.timeout.ms', 'delivery.timeout.ms'];

const COMMON_OPTIONS = ['topic', 'properties.', 'key.format', 'value.format', 'value.fields-include', 'csv.field-delimiter', 'sink.delivery-guarantee', 'sink.transactional-id-prefix'];

/** How a table's rows map onto Kafka records: which columns the key holds, which the value, in which formats. */
interface RecordLayout {
  readonly physical: readonly CatalogColumn[];
  /** Physical indexes of the key's columns, in key order; empty: records have no key. */
  readonly keyIndexes: readonly number[];
  /** Physical indexes of the value's columns (all of them, or those outside the key for EXCEPT_KEY). */
  readonly valueIndexes: readonly number[];
  readonly key?: LineFormat;
  readonly value: LineFormat;
}

function layoutOf(table: CatalogTable, keyNames: readonly string[], valueFormat: string): RecordLayout {
  const physical = table.columns.filter((c) => c.physicalIndex !== undefined);
  const keyIndexes = keyNames.map((name) => {
    const index = physical.findIndex((c) => c.name === name);
    if (index < 0) throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': key column '${name}' is not a physical column (${physical.map((c) => c.name).join(', ')})`);
    return index;
  });
  const include = table.options['value.fields-include'] ?? 'ALL';
  if (include !== 'ALL' && include !== 'EXCEPT_KEY') throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': 'value.fields-include' is 'ALL' or 'EXCEPT_KEY', got '${include}'`);
  const valueIndexes = physical.map((_, i) => i).filter((i) => include === 'ALL' || !keyIndexes.includes(i));
  const delimiter = table.options['csv.field-delimiter'] ?? ',';
  const fieldsAt = (indexes: readonly number[]): Field[] => indexes.map((i) => physical[i]!);
  const keyFormat = table.options['key.format'];
  if (keyIndexes.length > 0 && keyFormat === undefined) throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}' has key columns (${keyNames.join(', ')}) and needs 'key.format' = 'json' | 'csv' | 'raw'`);
  return {
    physical,
    keyIndexes,
    valueIndexes,
    ...(keyIndexes.length > 0 ? { key: lineFormatOf(keyFormat!, fieldsAt(keyIndexes), table.name, delimiter) } : {}),
    value: lineFormatOf(valueFormat, fieldsAt(valueIndexes), table.name, delimiter),
  };
}

const text = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');

/** A record's physical row from its key and value (a tombstone: the key's columns, nulls elsewhere), then its metadata values. */
function recordToRow(layout: RecordLayout, metadata: readonly CatalogColumn[], record: KafkaConsumerRecord): unknown[] {
  const row: unknown[] = layout.physical.map(() => null);
  if (record.value !== null) {
    const values = layout.value.deserialize(text(record.value));
    layout.valueIndexes.forEach((p, i) => (row[p] = values[i] ?? null));
  }
  if (layout.key !== undefined && record.key !== null && (record.value === null || layout.valueIndexes.length < layout.physical.length)) {
    const keys = layout.key.deserialize(text(record.key));
    layout.keyIndexes.forEach((p, i) => (row[p] = keys[i] ?? null));
  }
  for (const column of metadata) {
    const key = column.metadata!.key;
    row.push(key === 'topic' ? record.topic : key === 'partition' ? record.partition : key === 'offset' ? record.offset : record.timestamp);
  }
  return row;
}

function startingOffsets(table: CatalogTable): OffsetsInitializer {
  const mode = table.options['scan.startup.mode'] ?? 'group-offsets';
  switch (mode) {
    case 'earliest-offset':
      return OffsetsInitializer.earliest();
    case 'latest-offset':
      return OffsetsInitializer.latest();
    case 'group-offsets':
      // Flink's default: the group's committed offsets, and (its properties.auto.offset.reset default aside) earliest without them.
      return OffsetsInitializer.committedOffsets('earliest');
    case 'timestamp':
      return OffsetsInitializer.timestamp(Number(requireOption(table, 'scan.startup.timestamp-millis', '1700000000000')));
    case 'specific-offsets': {
      // 'partition:0,offset:42;partition:1,offset:300' (Flink's syntax), for the table's one topic.
      const topic = requireOption(table, 'topic', 'orders');
      const offsets: Record<string, number> = {};
      for (const part of requireOption(table, 'scan.startup.specific-offsets', 'partition:0,offset:42').split(';')) {
        const match = /^\s*partition:(\d+),offset:(\d+)\s*$/.exec(part);
        if (match === null) throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': 'scan.startup.specific-offsets' is 'partition:0,offset:42;partition:1,offset:300', got '${part}'`);
        offsets[`${topic}-${match[1]}`] = Number(match[2]);
      }
      return OffsetsInitializer.offsets(offsets);
    }
    default:
      throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': 'scan.startup.mode' is 'earliest-offset', 'latest-offset', 'group-offsets', 'timestamp' or 'specific-offsets', got '${mode}'`);
  }
}

function applyProperties(table: CatalogTable, known: readonly string[], apply: (key: string, value: string) => void): void {
  for (const [option, value] of Object.entries(table.options)) {
    if (!option.startsWith('properties.') || option === 'properties.bootstrap.servers' || option === 'properties.group.id') continue;
    const key = option.slice('properties.'.length);
    if (known.includes(key)) apply(key, value);
    else if (!SOURCE_PROPERTIES.includes(key) && !SINK_PROPERTIES.includes(key)) {
      throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': Weir's Kafka client has no property '${key}'; 'properties.' takes ${[...SOURCE_PROPERTIES, ...SINK_PROPERTIES].join(', ')}`);
    }
  }
}

function kafkaSource(table: CatalogTable, layout: RecordLayout, upsert: boolean): KafkaSource<{ kind: RowKind; fields: unknown[] }> {
  const metadata = metadataColumns(table);
  const builder: KafkaSourceBuilder<{ kind: RowKind; fields: unknown[] }> = KafkaSource.builder<{ kind: RowKind; fields: unknown[] }>()
    .setBootstrapServers(requireOption(table, 'properties.bootstrap.servers', 'localhost:9092'))
    .setTopics(requireOption(table, 'topic', 'orders').split(';').map((t) => t.trim()))
    .setDeserializer({
      deserialize(record, out) {
        // The append-only kafka table skips tombstones as Flink's does; upsert-kafka reads them as deletions.
        if (record.value === null && !upsert) return;
        out.collect({ kind: record.value === null ? '-D' : '+U', fields: recordToRow(layout, metadata, record) });
      },
    });
  const groupId = table.options['properties.group.id'];
  if (groupId !== undefined) builder.setGroupId(groupId);
  // upsert-kafka always reads the whole topic: a key's latest row may be anywhere in it.
  builder.setStartingOffsets(upsert ? OffsetsInitializer.earliest() : startingOffsets(table));
  const bounded = table.options['scan.bounded.mode'];
  if (bounded === 'latest-offset') builder.setBounded(OffsetsInitializer.latest());
  else if (bounded !== undefined && bounded !== 'unbounded') throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': 'scan.bounded.mode' is 'unbounded' or 'latest-offset', got '${bounded}'`);
  const discovery = table.options['scan.topic-partition-discovery.interval'];
  if (discovery !== undefined) builder.setProperty('partition.discovery.interval.ms', String(Number(discovery.replace(/\s*ms$/, ''))));
  applyProperties(table, SOURCE_PROPERTIES, (k, v) => builder.setProperty(k, v));
  return builder.build();
}

function deliveryGuarantee(table: CatalogTable): DeliveryGuarantee {
  const given = table.options['sink.delivery-guarantee'] ?? 'at-least-once';
  const guarantee = ({ none: DeliveryGuarantee.NONE, 'at-least-once': DeliveryGuarantee.AT_LEAST_ONCE, 'exactly-once': DeliveryGuarantee.EXACTLY_ONCE } as Record<string, DeliveryGuarantee>)[given];
  if (guarantee === undefined) throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': 'sink.delivery-guarantee' is 'none', 'at-least-once' or 'exactly-once', got '${given}'`);
  if (guarantee === DeliveryGuarantee.EXACTLY_ONCE) requireOption(table, 'sink.transactional-id-prefix', `${table.name}-tx`);
  return guarantee;
}

/** The sink's records: the row's key and value in their formats; a -D row is the key's tombstone (upsert), -U rows are dropped (the +U after it replaces the key's row). */
function kafkaSink(table: CatalogTable, layout: RecordLayout, columns: readonly CatalogColumn[]): KafkaSink<Row> {
  const topic = requireOption(table, 'topic', 'orders');
  // The row's fields are the sink's columns: physical ones, then (anywhere among them) a written 'timestamp'.
  const physicalAt = layout.physical.map((p) => columns.indexOf(p));
  const timestampAt = columns.findIndex((c) => c.metadata?.key === 'timestamp');
  const serializer = {
    serialize(row: Row) {
      const physical = physicalAt.map((i) => row.fields[i] ?? null);
      const value = row.kind === '-D' ? null : Buffer.from(layout.value.serialize(layout.valueIndexes.map((i) => physical[i])), 'utf8');
      const key = layout.key?.serialize(layout.keyIndexes.map((i) => physical[i]));
      const timestamp = timestampAt < 0 ? null : row.fields[timestampAt];
      return {
        topic,
        value,
        ...(key === undefined ? {} : { key: Buffer.from(key, 'utf8') }),
        ...(typeof timestamp === 'number' ? { timestamp } : {}),
      };
    },
  };
  const guarantee = deliveryGuarantee(table);
  const builder = KafkaSink.builder<Row>()
    .setBootstrapServers(requireOption(table, 'properties.bootstrap.servers', 'localhost:9092'))
    .setRecordSerializer(serializer as KafkaRecordSerializationSchema<Row>)
    .setDeliveryGuarantee(guarantee);
  if (guarantee === DeliveryGuarantee.EXACTLY_ONCE) builder.setTransactionalIdPrefix(table.options['sink.transactional-id-prefix']!);
  applyProperties(table, SINK_PROPERTIES, (k, v) => builder.setProperty(k, v));
  return builder.build();
}

const keyFields = (table: CatalogTable): string[] => (table.options['key.fields'] ?? '').split(';').map((k) => k.trim()).filter((k) => k !== '');

/**
 * Flink's kafka connector: an append-only table over a topic, its rows in the value ('format'
 * or 'value.format'), optionally some columns ('key.fields') in the key; metadata columns
 * topic, partition, offset and timestamp. Reads through KafkaSource (offsets in checkpoints),
 * writes through KafkaSink ('sink.delivery-guarantee' = 'exactly-once': one transaction per
 * checkpoint, with 'sink.transactional-id-prefix').
 */
export const kafkaFactory: TableFactory = {
  identifier: 'kafka',
  options: [...COMMON_OPTIONS, 'format', 'key.fields', 'scan.startup.mode', 'scan.startup.timestamp-millis', 'scan.startup.specific-offsets', 'scan.bounded.mode', 'scan.topic-partition-discovery.interval'],
  accepts: 'insert-only',
  metadata: METADATA,
  createSource(table) {
    return { source: kafkaTableSource(table), toRow: (record) => (record as Row).fields as unknown[] };
  },
  attachSink(table, _fields, rows, uid) {
    rows.sinkTo(kafkaTableSink(table)).name(`Sink[${table.name}]`).uid(uid('sink'));
  },
};

function valueFormatOf(table: CatalogTable): string {
  const format = table.options['value.format'] ?? table.options.format;
  if (format === undefined) throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}' (connector '${table.options.connector}') needs the option 'format' (or 'value.format'), as in 'format' = 'json'`);
  return format;
}

function primaryKeyOf(table: CatalogTable): readonly string[] {
  if (table.primaryKey === undefined || table.primaryKey.length === 0) {
    throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': 'upsert-kafka' tables require to define a PRIMARY KEY constraint, as in PRIMARY KEY (id) NOT ENFORCED; the key of each Kafka record is its row's primary key`);
  }
  return table.primaryKey;
}

/**
 * Flink's upsert-kafka connector: a table with a PRIMARY KEY over a (compacted) topic whose
 * record key is the row's primary key ('key.format') and value the row ('value.format'), a null
 * value (tombstone) deleting the key. As a sink it takes updates: +I and +U write the key's new
 * row, -D its tombstone, -U nothing. As a source it reads the topic from the start and produces
 * the changelog (+I, -U, +U, -D) by key.
 */
export const upsertKafkaFactory: TableFactory = {
  identifier: 'upsert-kafka',
  options: COMMON_OPTIONS,
  accepts: 'all',
  produces: 'upsert',
  metadata: METADATA,
  createSource(table) {
    return { source: kafkaTableSource(table), toRow: (record) => (record as Row).fields as unknown[], kindOf: (record) => (record as Row).kind };
  },
  attachSink(table, _fields, rows, uid) {
    const layout = tableLayout(table);
    const columns = sinkColumns(table);
    const keyAt = layout.keyIndexes.map((p) => columns.indexOf(layout.physical[p]!));
    rows
      // A key's changes go through one subtask in order, as Flink keys an upsert sink's input by its primary key.
      .keyBy((row: Row) => keyString(keyAt.map((i) => row.fields[i] ?? null)))
      .filter((row: Row) => row.kind !== '-U')
      .name(`DropUpdateBefore[${table.name}]`)
      .uid(uid('upsert'))
      .sinkTo(kafkaTableSink(table))
      .name(`Sink[${table.name}]`)
      .uid(uid('sink'));
  },
};

const isUpsert = (table: CatalogTable): boolean => table.options.connector === 'upsert-kafka';

function tableLayout(table: CatalogTable): RecordLayout {
  return isUpsert(table) ? layoutOf(table, primaryKeyOf(table), requireOption(table, 'value.format', 'json')) : layoutOf(table, keyFields(table), valueFormatOf(table));
}

/** A kafka or upsert-kafka table's KafkaSource: it emits `{ kind, fields }` per record (fields: physical, then metadata values). */
export function kafkaTableSource(table: CatalogTable): KafkaSource<{ kind: RowKind; fields: unknown[] }> {
  return kafkaSource(table, tableLayout(table), isUpsert(table));
}

/** A kafka or upsert-kafka table's KafkaSink of rows with the table's sink columns. */
export function kafkaTableSink(table: CatalogTable): KafkaSink<Row> {
  return kafkaSink(table, tableLayout(table), sinkColumns(table));
}
