import { DataGeneratorSource, nexmarkEvent, nexmarkEventType, RateLimiterStrategy, type NexmarkEvent } from '@weir/connectors';
import '../nexmark/count-char.ts';
import { SqlError, SqlErrorCode } from '../errors.ts';
import type { CatalogTable } from '../validate/catalog.ts';
import type { SqlType } from '../validate/types.ts';
import { numberOption, type SourcePushdown, type TableFactory, type TableSource } from './factory.ts';

/** The ROW columns Nexmark's DDL declares, with the fields of the generator's objects they can name. */
const ROWS = {
  person: ['id', 'name', 'emailAddress', 'creditCard', 'city', 'state', 'dateTime', 'extra'],
  auction: ['id', 'itemName', 'description', 'initialBid', 'reserve', 'dateTime', 'expires', 'seller', 'category', 'extra'],
  bid: ['auction', 'bidder', 'price', 'channel', 'url', 'dateTime', 'extra'],
} as const;
type Kind = keyof typeof ROWS;

/** The standard proportions, which the generator has built in (people:auctions:bids 1:3:46). */
const PROPORTIONS: Record<string, number> = { 'person.proportion': 1, 'auction.proportion': 3, 'bid.proportion': 46 };

function invalid(table: CatalogTable, message: string): SqlError {
  return new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table.name}' (connector 'nexmark'): ${message}`);
}

/** How one physical column of the table is read from an event. */
function columnReader(table: CatalogTable, name: string, type: SqlType): (event: NexmarkEvent) => unknown {
  if (name === 'event_type') {
    if (type.root !== 'INT' && type.root !== 'BIGINT') throw invalid(table, `column event_type is INT, not ${type.root}`);
    return (e) => ('person' in e ? 0 : 'auction' in e ? 1 : 2);
  }

  if (!(name in ROWS)) throw invalid(table, `no column '${name}': Nexmark's table has event_type, person, auction and bid (and dateTime computed from them)`);
  const kind = name as Kind;
  if (type.root !== 'ROW') throw invalid(table, `column ${kind} is a ROW<..> of ${ROWS[kind].join(', ')}`);
  const keys = type.fields!.map((f) => {
    if (!(ROWS[kind] as readonly string[]).includes(f.name)) throw invalid(table, `ROW ${kind} has no field '${f.name}'; it has ${ROWS[kind].join(', ')}`);
    return f.name;
  });
  return (e) => {
    const value = (e as unknown as Record<string, Record<string, unknown> | undefined>)[kind];
    if (value === undefined) return null;
    return keys.map((k) => value[k] ?? null);
  };
}

/**
 * The table's physical row of event i (the columns it declares, in its order). Under a
 * push-down, columns not read are NULL, and when a term of the pushed filter reads event_type only, an
 * event it refuses is not made at all: its kind is a function of i. Such an event is an empty
 * row, which the scan drops.
 */
export function nexmarkRows(table: CatalogTable, pushdown?: SourcePushdown): (i: number) => unknown[] {
  const physical = table.columns.filter((c) => c.physicalIndex !== undefined);
  const readers = physical.map((c, p) => (pushdown === undefined || pushdown.columns.has(p) ? columnReader(table, c.name, c.type) : () => null));
  const typeIndex = physical.findIndex((c) => c.name === 'event_type');
  // The AND terms of the pushed filter that read event_type alone (q2's `event_type = 2 AND
  // MOD(bid.auction, 123) = 0` has one): an event one of them refuses is never made.
  const byType = typeIndex < 0 ? [] : (pushdown?.filter?.conjuncts ?? []).filter((c) => [...c.reads].every((p) => p === typeIndex));
  const probe: unknown[] = physical.map(() => null);
  return (i) => {
    if (byType.length > 0) {
      probe[typeIndex] = nexmarkEventType(i);
      for (const conjunct of byType) if (!conjunct.test(probe)) return SKIPPED;
    }
    const event = nexmarkEvent(i);
    return readers.map((read) => read(event));
  };
}

const SKIPPED: unknown[] = [];

/**
 * Flink's Nexmark table source (github.com/nexmark/nexmark, `'connector' = 'nexmark'`): the
 * benchmark's event generator as a table of `event_type INT` (0 person, 1 auction, 2 bid) and one
 * ROW column per kind, the other two NULL; the DDL's computed `dateTime` and its WATERMARK give
 * event time. 'events.num' bounds it (default unbounded), 'first-event.rate' / 'next-event.rate'
 * are events per second (0, the default here, is as fast as it goes). Event i is a pure function
 * of i, so a restored job regenerates exactly what it lost, and a test computes the same events.
 */
export const nexmarkFactory: TableFactory = {
  identifier: 'nexmark',
  options: ['events.num', 'first-event.rate', 'next-event.rate', 'person.proportion', 'auction.proportion', 'bid.proportion'],
  createSource(table: CatalogTable, pushdown?: SourcePushdown): TableSource {
    for (const [key, standard] of Object.entries(PROPORTIONS)) {
      const value = table.options[key];
      if (value !== undefined && Number(value) !== standard) throw invalid(table, `'${key}' = '${value}': Weir's generator has the standard proportions only (person 1, auction 3, bid 46)`);
    }
    const firstRate = numberOption(table, 'first-event.rate', 0);
    const nextRate = numberOption(table, 'next-event.rate', firstRate);
    if (nextRate !== firstRate) throw invalid(table, "'first-event.rate' and 'next-event.rate' differ: Weir's generator has one rate");
    const events = table.options['events.num'] !== undefined ? numberOption(table, 'events.num', 0) : Number.POSITIVE_INFINITY;
    const source = new DataGeneratorSource<unknown[]>(
      nexmarkRows(table, pushdown),
      events === 0 ? Number.POSITIVE_INFINITY : events,
      firstRate > 0 ? RateLimiterStrategy.perSecond(firstRate) : RateLimiterStrategy.noOp(),
    );
    return { source, toRow: (record) => ((record as unknown[]).length === 0 ? undefined : (record as unknown[])) };
  },
};
