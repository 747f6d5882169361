import type { DataStream } from '@weir/api';
import { FileSink, FileSource, SimpleStringEncoder, TextLineInputFormat } from '@weir/connectors';
import type { Row } from '../row.ts';
import { SqlError, SqlErrorCode } from '../errors.ts';
import type { CatalogTable } from '../validate/catalog.ts';
import type { Field } from '../logical/rex.ts';
import { requireOption, type TableFactory } from './factory.ts';
import { csvFormat, jsonFormat, type LineFormat } from './formats.ts';
import { DEFAULT_PARTITION_NAME, partitionSplitter } from './partitions.ts';

/** A partitioned sink's record: the partition's path below 'path' and the line of its file. */
interface PartitionedLine {
  readonly path: string;
  readonly line: string;
}

export function formatOf(table: CatalogTable, fields: readonly Field[]): LineFormat {
  const format = requireOption(table, 'format', 'csv');
  if (format === 'csv') return csvFormat(fields, table.options['csv.field-delimiter'] ?? ',');
  if (format === 'json') return jsonFormat(fields);
  throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': the filesystem connector's 'format' is 'csv' or 'json', got '${format}'`);
}

/**
 * Flink's filesystem connector over Weir's FileSource (every file below 'path', read once,
 * 'source.monitor-interval' keeps watching for new ones) and FileSink (part files committed
 * when a checkpoint completes: exactly-once). Append-only as a sink. A PARTITIONED BY sink
 * writes each row into its Hive-style partition directory below 'path' (`dt=../hm=../`, the
 * partition columns in the path only, as Flink's); its parts are committed per checkpoint as
 * any FileSink's. Flink's partition commit (`sink.partition-commit.*`: a trigger, delay and
 * policy such as a `_SUCCESS` file once a partition is complete), its partition time extractor,
 * rolling-policy options and compaction are refused (SQL_UNSUPPORTED), as is reading a
 * partitioned table.
 */
export const filesystemFactory: TableFactory = {
  identifier: 'filesystem',
  options: ['path', 'format', 'csv.field-delimiter', 'source.monitor-interval', 'partition.default-name', 'lookup.join.cache.ttl'],
  unsupportedOptions: ['sink.partition-commit.', 'partition.time-extractor.', 'sink.rolling-policy.', 'auto-compaction', 'compaction.file-size', 'sink.shuffle-by-partition.enable'],
  partitioned: true,
  accepts: 'insert-only',
  createSource(table) {
    if (table.partitionKeys !== undefined) {
      throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `Table '${table.name}': reading a partitioned filesystem table (PARTITIONED BY) is not supported by Weir's SQL yet; only writing one`);
    }
    const physical = table.columns.filter((c) => c.physicalIndex !== undefined);
    const format = formatOf(table, physical);
    const builder = FileSource.forRecordStreamFormat(new TextLineInputFormat(), requireOption(table, 'path', '/data/input'));
    const monitor = table.options['source.monitor-interval'];
    if (monitor !== undefined) builder.monitorContinuously(Number(monitor.replace(/\s*ms$/, '')));
    return { source: builder.build(), toRow: (line) => format.deserialize(line as string) };
  },
  attachSink(table, fields, rows, uid) {
    if (table.partitionKeys !== undefined) {
      attachPartitionedSink(table, table.partitionKeys, fields, rows, uid);
      return;
    }
    const format = formatOf(table, fields);
    rows
      .map((row) => format.serialize(row.fields))
      .name(`Format[${table.name}]`)
      .uid(uid('format'))
      .sinkTo(FileSink.forRowFormat(requireOption(table, 'path', '/data/output'), new SimpleStringEncoder<string>()).build())
      .name(`Sink[${table.name}]`)
      .uid(uid('sink'));
  },
};

function attachPartitionedSink(table: CatalogTable, keys: readonly string[], fields: readonly Field[], rows: DataStream<Row>, uid: (name: string) => string): void {
  const { dataFields, split } = partitionSplitter(fields, keys, table.options['partition.default-name'] ?? DEFAULT_PARTITION_NAME);
  const format = formatOf(table, dataFields);
  const sink = FileSink.forRowFormat<PartitionedLine>(requireOption(table, 'path', '/data/output'), { encode: (record) => `${record.line}\n` })
    .withBucketAssigner({ getBucketId: (record) => record.path })
    .build();
  rows
    .map((row): PartitionedLine => {
      const { path, data } = split(row.fields);
      return { path, line: format.serialize(data) };
    })
    .name(`Format[${table.name}]`)
    .uid(uid('format'))
    .sinkTo(sink)
    .name(`Sink[${table.name}]`)
    .uid(uid('sink'));
}
