import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nexmarkEvent, type Auction, type Bid, type Person } from '@weir/connectors';
import { MORE_REFERENCES } from './nexmark-sql-reference-q14-q16.ts';

/**
 * The Nexmark SQL queries' results computed here from the generator's events, without the SQL
 * engine: each query's final rows as rowToString prints them (kind left out), sorted, duplicates
 * kept. Written from the queries' text (github.com/nexmark/nexmark), with Flink's semantics:
 * windows aligned to the epoch, window_end exclusive, session windows merging when the gap
 * between two bids is at most the gap (Flink's TimeWindow.intersects), Top-N ties to the earlier
 * row, a join's condition over all rows of both sides.
 */
export interface NexmarkEvents {
  readonly persons: readonly Person[];
  readonly auctions: readonly Auction[];
  readonly bids: readonly Bid[];
}

export function nexmarkEvents(count: number): NexmarkEvents {
  const persons: Person[] = [];
  const auctions: Auction[] = [];
  const bids: Bid[] = [];
  for (let i = 0; i < count; i++) {
    const e = nexmarkEvent(i);
    if ('person' in e) persons.push(e.person);
    else if ('auction' in e) auctions.push(e.auction);
    else bids.push(e.bid);
  }
  return { persons, auctions, bids };
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** TIMESTAMP(3) as Flink prints it: `2026-01-01 00:00:01.500`. */
export function ts(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
}

const row = (values: readonly unknown[]): string => `[${values.map((v) => (v === null ? 'null' : String(v))).join(', ')}]`;
const bidRow = (b: Bid): unknown[] => [b.auction, b.bidder, b.price, b.channel, b.url, ts(b.dateTime), b.extra];
const auctionRow = (a: Auction): unknown[] => [a.id, a.itemName, a.description, a.initialBid, a.reserve, ts(a.dateTime), ts(a.expires), a.seller, a.category, a.extra];

/** 0.908 * price as DECIMAL(23, 3): exact. */
export function euros(price: number): string {
  const milli = BigInt(price) * 908n;
  return `${milli / 1000n}.${String(milli % 1000n).padStart(3, '0')}`;
}

function groupBy<T, K>(items: Iterable<T>, key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    let list = groups.get(k);
    if (list === undefined) groups.set(k, (list = []));
    list.push(item);
  }
  return groups;
}

const TEN_SECONDS = 10_000;
const tumble = (time: number): number => time - (time % TEN_SECONDS);

const HOT_CHANNELS = new Map([
  ['apple', '0'],
  ['google', '1'],
  ['facebook', '2'],
  ['baidu', '3'],
]);

const REFERENCES: Record<string, (e: NexmarkEvents) => unknown[][]> = {
  q0: ({ bids }) => bids.map((b) => [b.auction, b.bidder, b.price, ts(b.dateTime), b.extra]),
  q1: ({ bids }) => bids.map((b) => [b.auction, b.bidder, euros(b.price), ts(b.dateTime), b.extra]),
  q2: ({ bids }) => bids.filter((b) => b.auction % 123 === 0).map((b) => [b.auction, b.price]),
  q3: ({ persons, auctions }) => {
    const sellers = groupBy(persons.filter((p) => ['OR', 'ID', 'CA'].includes(p.state)), (p) => p.id);
    return auctions.filter((a) => a.category === 10).flatMap((a) => (sellers.get(a.seller) ?? []).map((p) => [p.name, p.city, p.state, a.id]));
  },
  q4: ({ auctions, bids }) => {
    // The inner GROUP BY A.id, A.category: each auction's highest bid within its lifetime (an
    // auction without one has no row); the outer AVG over those per category, BIGINT truncated.
    const bidsOf = groupBy(bids, (b) => b.auction);
    const finals = new Map<number, number[]>();
    for (const a of auctions) {
      const prices = (bidsOf.get(a.id) ?? []).filter((b) => b.dateTime >= a.dateTime && b.dateTime <= a.expires).map((b) => b.price);
      if (prices.length === 0) continue;
      let list = finals.get(a.category);
      if (list === undefined) finals.set(a.category, (list = []));
      list.push(Math.max(...prices));
    }
    return [...finals].map(([category, list]) => [category, Math.trunc(list.reduce((s, p) => s + p, 0) / list.length)]);
  },
  q5: ({ bids }) => {
    // HOP(2 s slide, 10 s size): a bid is in the 5 windows whose start is a multiple of 2 s in (t - 10 s, t].
    const counts = new Map<number, Map<number, number>>();
    for (const b of bids) {
      for (let start = b.dateTime - (b.dateTime % 2000); start > b.dateTime - TEN_SECONDS; start -= 2000) {
        let perAuction = counts.get(start);
        if (perAuction === undefined) counts.set(start, (perAuction = new Map()));
        perAuction.set(b.auction, (perAuction.get(b.auction) ?? 0) + 1);
      }
    }
    const rows: unknown[][] = [];
    for (const perAuction of counts.values()) {
      const max = Math.max(...perAuction.values());
      for (const [auction, num] of perAuction) if (num >= max) rows.push([auction, num]);
    }
    return rows;
  },
  q7: ({ bids }) => {
    const maxPrice = new Map<number, number>();
    for (const b of bids) maxPrice.set(tumble(b.dateTime) + TEN_SECONDS, Math.max(maxPrice.get(tumble(b.dateTime) + TEN_SECONDS) ?? -Infinity, b.price));
    const byPrice = groupBy(bids, (b) => b.price);
    const rows: unknown[][] = [];
    for (const [end, max] of maxPrice) {
      for (const b of byPrice.get(max) ?? []) if (b.dateTime >= end - TEN_SECONDS && b.dateTime <= end) rows.push([b.auction, b.price, b.bidder, ts(b.dateTime), b.extra]);
    }
    return rows;
  },
  q8: ({ persons, auctions }) => {
    const sellers = new Set(auctions.map((a) => `${a.seller}/${tumble(a.dateTime)}`));
    const people = new Map(persons.map((p) => [`${p.id}/${p.name}/${tumble(p.dateTime)}`, p]));
    return [...people.values()].filter((p) => sellers.has(`${p.id}/${tumble(p.dateTime)}`)).map((p) => [p.id, p.name, ts(tumble(p.dateTime))]);
  },
  q9: ({ auctions, bids }) => {
    const bidsOf = groupBy(bids, (b) => b.auction);
    const rows: unknown[][] = [];
    for (const a of auctions) {
      let best: Bid | undefined;
      for (const b of bidsOf.get(a.id) ?? []) {
        if (b.dateTime < a.dateTime || b.dateTime > a.expires) continue;
        if (best === undefined || b.price > best.price || (b.price === best.price && b.dateTime < best.dateTime)) best = b;
      }
      if (best !== undefined) rows.push([...auctionRow(a), best.auction, best.bidder, best.price, ts(best.dateTime), best.extra]);
    }
    return rows;
  },
  q11: ({ bids }) => {
    const rows: unknown[][] = [];
    for (const [bidder, list] of groupBy(bids, (b) => b.bidder)) {
      let start = list[0]!.dateTime;
      let last = start;
      let count = 0;
      for (const b of list) {
        if (b.dateTime - last > TEN_SECONDS) {
          rows.push([bidder, count, ts(start), ts(last + TEN_SECONDS)]);
          start = b.dateTime;
          count = 0;
        }
        last = b.dateTime;
        count++;
      }
      rows.push([bidder, count, ts(start), ts(last + TEN_SECONDS)]);
    }
    return rows;
  },
  q17: ({ bids }) =>
    [...groupBy(bids, (b) => `${b.auction}/${ts(b.dateTime).slice(0, 10)}`).values()].map((list) => {
      const prices = list.map((b) => b.price);
      const sum = prices.reduce((a, p) => a + p, 0);
      const ranks = [prices.filter((p) => p < 10_000).length, prices.filter((p) => p >= 10_000 && p < 1_000_000).length, prices.filter((p) => p >= 1_000_000).length];
      // AVG of BIGINT is BIGINT in Flink: the quotient truncated.
      return [list[0]!.auction, ts(list[0]!.dateTime).slice(0, 10), list.length, ...ranks, Math.min(...prices), Math.max(...prices), Math.trunc(sum / list.length), sum];
    }),
  q18: ({ bids }) => {
    const last = new Map<string, Bid>();
    for (const b of bids) {
      const key = `${b.bidder}/${b.auction}`;
      const kept = last.get(key);
      if (kept === undefined || b.dateTime > kept.dateTime) last.set(key, b);
    }
    return [...last.values()].map(bidRow);
  },
  q19: ({ bids }) =>
    [...groupBy(bids, (b) => b.auction).values()].flatMap((list) =>
      [...list]
        .sort((x, y) => y.price - x.price)
        .slice(0, 10)
        .map((b, i) => [...bidRow(b), i + 1]),
    ),
  q20: ({ auctions, bids }) => {
    const byId = groupBy(
      auctions.filter((a) => a.category === 10),
      (a) => a.id,
    );
    return bids.flatMap((b) =>
      (byId.get(b.auction) ?? []).map((a) => [...bidRow(b), a.itemName, a.description, a.initialBid, a.reserve, ts(a.dateTime), ts(a.expires), a.seller, a.category, a.extra]),
    );
  },
  // The side_input table of sideInputLines: keys 0..9999 but multiples of 3, value v<key>.
  q13: ({ bids }) => bids.filter((b) => (b.auction % 10000) % 3 !== 0).map((b) => [b.auction, b.bidder, b.price, ts(b.dateTime), `v${b.auction % 10000}`]),
  q21: ({ bids }) =>
    bids.flatMap((b) => {
      const id = /(&|^)channel_id=([^&]*)/.exec(b.url)?.[2] ?? null;
      const hot = HOT_CHANNELS.get(b.channel.toLowerCase());
      if (id === null && hot === undefined) return [];
      return [[b.auction, b.bidder, b.price, b.channel, hot ?? id]];
    }),
  q22: ({ bids }) =>
    bids.map((b) => {
      const parts = b.url.split('/');
      return [b.auction, b.bidder, b.price, b.channel, parts[3] ?? null, parts[4] ?? null, parts[5] ?? null];
    }),
  ...MORE_REFERENCES,
};

/** q13's side_input csv, which the test writes before submitting: keys 0..9999 but multiples of 3 (those bids find no row), value `v<key>`. */
export function sideInputLines(): string {
  const lines: string[] = [];
  for (let k = 0; k < 10_000; k++) if (k % 3 !== 0) lines.push(`${k},v${k}`);
  return `${lines.join('\n')}\n`;
}

/** Flink's csv format of a field: quoted when it holds a quote, a comma or a line break. */
const csv = (v: unknown): string => (/[",\n\r]/.test(String(v)) ? `"${String(v).replaceAll('"', '""')}"` : String(v));

/**
 * Queries whose INSERT runs into a partitioned filesystem table: each row as its partition's
 * Hive-style path (values escaped as Flink's PartitionPathUtils: ':' is %3A) and its csv line
 * without the partition columns, as `partitionedLines` reads them back.
 */
const PARTITIONED: Record<string, (e: NexmarkEvents) => string[]> = {
  q10: ({ bids }) =>
    bids.map((b) => {
      const time = ts(b.dateTime);
      return `dt=${time.slice(0, 10)}/hm=${time.slice(11, 16).replace(':', '%3A')}/${[b.auction, b.bidder, b.price, time, b.extra].map(csv).join(',')}`;
    }),
};

export const REFERENCE_QUERIES: readonly string[] = [...Object.keys(REFERENCES), ...Object.keys(PARTITIONED)];

/** Whether the query writes a partitioned table (read with partitionedLines), not a changelog. */
export const isPartitioned = (query: string): boolean => query in PARTITIONED;

/** The query's final rows, sorted, each as rowToString prints it without the kind (a partitioned one's as partitionedLines). */
export function expectedRows(query: string, events: NexmarkEvents): string[] {
  if (isPartitioned(query)) return PARTITIONED[query]!(events).sort();
  return REFERENCES[query]!(events).map(row).sort();
}

/** A partitioned table's committed lines, each prefixed with its partition directory's path (`dt=../hm=../`), sorted; hidden files skipped. */
export function partitionedLines(dir: string, prefix = ''): string[] {
  const lines: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) lines.push(...partitionedLines(join(dir, entry.name), `${prefix}${entry.name}/`));
    else for (const line of readFileSync(join(dir, entry.name), 'utf8').split('\n')) if (line.length > 0) lines.push(`${prefix}${line}`);
  }
  return lines.sort();
}

/**
 * q12's windows are of the wall clock (PROCTIME()), so its rows are not a function of the
 * events: checked instead are that every row is a non-empty 10 s window aligned to the epoch,
 * and that no bidder is counted more often than it bid (exactly-once through a failure).
 * Processing-time windows still open when the input ends are not fired (as Flink's: its timers
 * are quiesced at the end of input), so a bidder's sum may fall short of its bids by the last
 * windows' counts. The problems found, none when right.
 */
export function wallClockProblems(query: string, rows: readonly string[], { bids }: NexmarkEvents): string[] {
  if (query !== 'q12') throw new Error(`no wall-clock check for ${query}`);
  const bidsOf = new Map<number, number>();
  for (const b of bids) bidsOf.set(b.bidder, (bidsOf.get(b.bidder) ?? 0) + 1);
  const counted = new Map<number, number>();
  const problems: string[] = [];
  const millis = (text: string): number => Date.parse(`${text.replace(' ', 'T')}Z`);
  for (const r of rows) {
    const [bidder, count, start, end] = r.slice(1, -1).split(', ');
    const [from, to] = [millis(start!), millis(end!)];
    if (!(from % TEN_SECONDS === 0 && to - from === TEN_SECONDS)) problems.push(`not a 10 s window aligned to the epoch: ${r}`);
    if (!(Number(count) > 0)) problems.push(`an empty window: ${r}`);
    counted.set(Number(bidder), (counted.get(Number(bidder)) ?? 0) + Number(count));
  }
  for (const [bidder, n] of counted) if (n > (bidsOf.get(bidder) ?? 0)) problems.push(`bidder ${bidder} counted ${n} times, bid ${bidsOf.get(bidder) ?? 0} times`);
  return problems;
}

/** Whether the query's rows depend on the wall clock (checked with wallClockProblems, not a reference). */
export const isWallClock = (query: string): boolean => query === 'q12';

/**
 * A changelog's final table as a sorted multiset (an insert-only query may emit equal rows),
 * and the rows retracted more often than inserted, which an exactly-once run never has.
 */
export function finalRows(changelog: readonly string[]): { rows: string[]; negative: string[] } {
  const counts = new Map<string, number>();
  for (const line of changelog) {
    const sign = line.startsWith('+I') || line.startsWith('+U') ? 1 : -1;
    counts.set(line.slice(2), (counts.get(line.slice(2)) ?? 0) + sign);
  }
  const rows: string[] = [];
  for (const [r, n] of counts) for (let i = 0; i < n; i++) rows.push(r);
  return { rows: rows.sort(), negative: [...counts].filter(([, n]) => n < 0).map(([r, n]) => `${r} x${n}`) };
}
