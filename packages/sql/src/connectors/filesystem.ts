import { FileSink, FileSource, SimpleStringEncoder, TextLineInputFormat } from '@weir/connectors';
import { SqlError, SqlErrorCode } from '../errors.ts';
import type { CatalogTable } from '../validate/catalog.ts';
import type { Field } from '../logical/rex.ts';
import { requireOption, type TableFactory } from './factory.ts';
import { csvFormat, jsonFormat, type LineFormat } from './formats.ts';

function formatOf(table: CatalogTable, fields: readonly Field[]): LineFormat {
  const format = requireOption(table, 'format', 'csv');
  if (format === 'csv') return csvFormat(fields, table.options['csv.field-delimiter'] ?? ',');
  if (format === 'json') return jsonFormat(fields);
  throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}': the filesystem connector's 'format' is 'csv' or 'json', got '${format}'`);
}

/**
 * Flink's filesystem connector over Weir's FileSource (every file below 'path', read once,
 * 'source.monitor-interval' keeps watching for new ones) and FileSink (part files committed
 * when a checkpoint completes: exactly-once). Append-only as a sink.
 */
export const filesystemFactory: TableFactory = {
  identifier: 'filesystem',
  options: ['path', 'format', 'csv.field-delimiter', 'source.monitor-interval'],
  accepts: 'insert-only',
  createSource(table) {
    const physical = table.columns.filter((c) => c.physicalIndex !== undefined);
    const format = formatOf(table, physical);
    const builder = FileSource.forRecordStreamFormat(new TextLineInputFormat(), requireOption(table, 'path', '/data/input'));
    const monitor = table.options['source.monitor-interval'];
    if (monitor !== undefined) builder.monitorContinuously(Number(monitor.replace(/\s*ms$/, '')));
    return { source: builder.build(), toRow: (line) => format.deserialize(line as string) };
  },
  attachSink(table, fields, rows, uid) {
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
