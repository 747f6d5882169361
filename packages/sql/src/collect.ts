import type { StreamExecutionEnvironment } from '@weir/api';
import { translateQuery, type PlannedQuery } from './planner.ts';
import type { RowKind } from './row.ts';
import type { TranslateOptions } from './translate/translator.ts';
import { formatValue } from './translate/values.ts';

/** A row of a SELECT's result as a client shows it: its kind and each field as Flink prints it ('NULL', decimals with their scale). */
export interface CollectedRow {
  readonly kind: RowKind;
  readonly fields: readonly string[];
}

/**
 * A SELECT in executeSql (Flink's TableResult.collect()): the query's changelog, each row as
 * text, into the job's collect sink, whose rows the submitter fetches from the JobManager
 * (`weir sql` shows them as a live table). Text, so the client needs no SQL types to show them.
 */
export function collectQuery(planned: PlannedQuery, env: StreamExecutionEnvironment, uid: (operator: string) => string, options: TranslateOptions): void {
  const types = planned.fields.map((f) => f.type);
  translateQuery(planned, env, uid, options)
    .map((row): CollectedRow => ({ kind: row.kind, fields: row.fields.map((v, i) => formatValue(v, types[i]!)) }))
    .name('Format[collect]')
    .uid(uid('collect-format'))
    .collectAsync()
    .name('Collect Sink')
    .uid(uid('collect'));
}
