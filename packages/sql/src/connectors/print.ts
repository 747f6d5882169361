import { DiscardingSink, PrintSink } from '@weir/connectors';
import { rowToString } from '../row.ts';
import type { TableFactory } from './factory.ts';

/** Flink's print connector: every row of the changelog as `+I[...]` / `-U[...]` on stdout, prefixed by 'print-identifier'. */
export const printFactory: TableFactory = {
  identifier: 'print',
  options: ['print-identifier'],
  accepts: 'all',
  attachSink(table, fields, rows, uid) {
    rows
      .map((row) => rowToString(row, fields))
      .name(`Format[${table.name}]`)
      .uid(uid('format'))
      .sinkTo(new PrintSink<string>(table.options['print-identifier']))
      .name(`Sink[${table.name}]`)
      .uid(uid('sink'));
  },
};

/** Flink's blackhole connector: takes every row, inserts and updates, and drops it. */
export const blackholeFactory: TableFactory = {
  identifier: 'blackhole',
  options: [],
  accepts: 'all',
  attachSink(table, _fields, rows, uid) {
    rows.sinkTo(new DiscardingSink()).name(`Sink[${table.name}]`)
      .uid(uid('sink'));
  },
};
