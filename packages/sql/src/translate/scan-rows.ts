import type { PushedFilter, SourcePushdown } from '../connectors/factory.ts';
import { conjuncts } from '../logical/join-condition.ts';
import type { ScanPushdown } from '../logical/nodes.ts';
import { inputsOf, substituteInputs, type Rex } from '../logical/rex.ts';
import type { CatalogTable } from '../validate/catalog.ts';
import { compile, type Evaluator } from './compile.ts';

function pushed(rex: Rex): PushedFilter {
  const test = compile(rex);
  return { reads: inputsOf(rex), test: (physical) => test(physical) === true };
}

/**
 * How a scan makes the table's row from a source record's physical row (physical values, then
 * metadata values): one reader per column, fixed once, so a row is one pass over them. Under a
 * push-down, a column nothing reads is NULL (never read or computed), and a row the pushed filter
 * refuses is dropped (undefined) before its computed columns; the source is told both
 * (`pushdown`), so it may make less still.
 */
export function scanRows(table: CatalogTable, scan: ScanPushdown | undefined): { rowOf: (physical: unknown[] | undefined) => unknown[] | undefined; pushdown?: SourcePushdown } {
  const needed = scan === undefined ? undefined : new Set(scan.columns);
  const readers: Evaluator[] = table.columns.map((c, i) => {
    if (needed !== undefined && !needed.has(i)) return () => null;
    if (c.physicalIndex !== undefined) {
      const p = c.physicalIndex;
      return (physical) => physical[p] ?? null;
    }
    if (c.metadata !== undefined) {
      const m = table.physicalCount + c.metadata.index;
      return (physical) => physical[m] ?? null;
    }
    return compile(c.computed!);
  });
  const width = readers.length;
  const full = (physical: unknown[]): unknown[] => {
    const row = new Array<unknown>(width);
    for (let i = 0; i < width; i++) row[i] = readers[i]!(physical);
    return row;
  };
  if (scan === undefined) return { rowOf: (physical) => (physical === undefined ? undefined : full(physical)) };
  // The pushed filter reads physical columns only: over the physical row, by their physical index.
  const overPhysical: Rex | undefined =
    scan.filter === undefined
      ? undefined
      : substituteInputs(
          scan.filter,
          table.columns.map((c) => (c.physicalIndex !== undefined ? { kind: 'input', index: c.physicalIndex, type: c.type } : { kind: 'literal', value: null, type: c.type })),
        );
  const filter = overPhysical === undefined ? undefined : compile(overPhysical);
  const physicalColumns = new Set(scan.columns.flatMap((i) => (table.columns[i]!.physicalIndex === undefined ? [] : [table.columns[i]!.physicalIndex!])));
  return {
    rowOf: (physical) => (physical === undefined || (filter !== undefined && filter(physical) !== true) ? undefined : full(physical)),
    pushdown: { columns: physicalColumns, ...(filter !== undefined ? { filter: { ...pushed(overPhysical!), conjuncts: conjuncts(overPhysical!).map(pushed) } } : {}) },
  };
}
