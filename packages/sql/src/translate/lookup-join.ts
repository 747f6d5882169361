import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ProcessFunction, type Collector, type ProcessContext } from '@weir/api';
import { formatOf } from '../connectors/filesystem.ts';
import type { Row } from '../row.ts';
import type { CatalogTable } from '../validate/catalog.ts';
import { parseDuration } from '../table-config.ts';
import type { Evaluator } from './compile.ts';
import { keyString } from './keys.ts';

/** Flink's FileSystemConnectorOptions.LOOKUP_JOIN_CACHE_TTL default: the table is read again after 60 minutes. */
const DEFAULT_TTL_MS = 60 * 60_000;

/** The files of a filesystem table below `path` (or `path` itself), skipping hidden ones ('.' or '_') as Flink's file source does. */
function filesOf(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.') && !e.name.startsWith('_'))
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? filesOf(join(path, e.name)) : [join(path, e.name)]));
}

/**
 * A processing-time lookup join against a filesystem table (Flink's LookupJoinRunner over
 * FileSystemLookupFunction): each subtask reads the whole table into a map by the lookup key
 * on its first row, and again on the first row after 'lookup.join.cache.ttl' (default 60 min)
 * has passed, by the task's processing-time service. Each input row's key expressions are looked up; its matches that pass the residual
 * are emitted with the input's row kind; a LEFT join emits the row null-padded when none does.
 * No state: after a restore the table is read again, as Flink's.
 */
export class LookupJoinFunction extends ProcessFunction<Row, Row> {
  #rows = new Map<string, (readonly unknown[])[]>();
  /** When the table is read next (processing time); at the first row. */
  #reloadAt = Number.NEGATIVE_INFINITY;
  readonly #ttl: number;
  readonly #width: number;

  constructor(
    private readonly table: CatalogTable,
    private readonly left: boolean,
    private readonly leftKeys: readonly Evaluator[],
    private readonly rightKeys: readonly number[],
    private readonly residual: Evaluator | undefined,
  ) {
    super();
    const ttl = table.options['lookup.join.cache.ttl'];
    this.#ttl = ttl === undefined ? DEFAULT_TTL_MS : parseDuration(ttl, 'lookup.join.cache.ttl');
    this.#width = table.columns.length;
  }

  #load(): void {
    const format = formatOf(this.table, this.table.columns);
    const option = this.table.options['path'] ?? '';
    const path = option.startsWith('file:') ? fileURLToPath(option) : option;
    const rows = new Map<string, (readonly unknown[])[]>();
    for (const file of filesOf(path)) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const fields = format.deserialize(line);
        const keys = this.rightKeys.map((k) => fields[k]);
        // A NULL key never equals anything.
        if (keys.some((k) => k === null || k === undefined)) continue;
        const key = keyString(keys);
        const list = rows.get(key);
        if (list === undefined) rows.set(key, [fields]);
        else list.push(fields);
      }
    }
    this.#rows = rows;
  }

  processElement(row: Row, ctx: ProcessContext, out: Collector<Row>): void {
    const now = ctx.timerService().currentProcessingTime();
    if (now >= this.#reloadAt) {
      this.#load();
      this.#reloadAt = now + this.#ttl;
    }
    const keys = this.leftKeys.map((k) => k(row.fields));
    const matches = keys.some((k) => k === null || k === undefined) ? undefined : this.#rows.get(keyString(keys));
    let matched = false;
    for (const fields of matches ?? []) {
      const joined = [...row.fields, ...fields];
      if (this.residual !== undefined && this.residual(joined) !== true) continue;
      matched = true;
      out.collect({ kind: row.kind, fields: joined });
    }
    if (!matched && this.left) out.collect({ kind: row.kind, fields: [...row.fields, ...new Array<unknown>(this.#width).fill(null)] });
  }
}
