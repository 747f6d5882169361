import type { Bid } from '@weir/connectors';
import { euros, ts, type NexmarkEvents } from './nexmark-sql-reference.ts';

/**
 * References for Nexmark's q14 (a UDF, CASE over HOUR) and the statistics queries q15 and q16
 * (COUNT(DISTINCT ..) with and without FILTER), computed here from the generator's bids
 * without the SQL engine.
 */
const RANKS: ReadonlyArray<(price: number) => boolean> = [(p) => p < 10_000, (p) => p >= 10_000 && p < 1_000_000, (p) => p >= 1_000_000];

/** total_bids, rank1..3_bids, total_bidders, rank1..3_bidders, total_auctions, rank1..3_auctions of a group's bids. */
function statistics(bids: readonly Bid[]): number[] {
  const ranked = [bids, ...RANKS.map((rank) => bids.filter((b) => rank(b.price)))];
  return [...ranked.map((list) => list.length), ...ranked.map((list) => new Set(list.map((b) => b.bidder)).size), ...ranked.map((list) => new Set(list.map((b) => b.auction)).size)];
}

function groups(bids: readonly Bid[], key: (b: Bid) => string): Bid[][] {
  const map = new Map<string, Bid[]>();
  for (const b of bids) {
    const k = key(b);
    const list = map.get(k);
    if (list === undefined) map.set(k, [b]);
    else list.push(b);
  }
  return [...map.values()];
}

const day = (b: Bid): string => ts(b.dateTime).slice(0, 10);
const minute = (b: Bid): string => ts(b.dateTime).slice(11, 16);

/** q14's bidTimeType of a bid's UTC hour. */
function bidTimeType(hour: number): string {
  if (hour >= 8 && hour <= 18) return 'dayTime';
  if (hour <= 6 || hour >= 20) return 'nightTime';
  return 'otherTime';
}

export const MORE_REFERENCES: Record<string, (e: NexmarkEvents) => unknown[][]> = {
  // 0.908 * price between 1,000,000 and 50,000,000 (exclusive), in exact thousandths.
  q14: ({ bids }) =>
    bids
      .filter((b) => b.price * 908 > 1_000_000_000 && b.price * 908 < 50_000_000_000)
      .map((b) => [b.auction, b.bidder, euros(b.price), bidTimeType(new Date(b.dateTime).getUTCHours()), ts(b.dateTime), b.extra, [...b.extra].filter((c) => c === 'c').length]),
  q15: ({ bids }) => groups(bids, day).map((list) => [day(list[0]!), ...statistics(list)]),
  // `minute` is MAX of the 'HH:mm' strings: the latest minute of the group.
  q16: ({ bids }) => groups(bids, (b) => `${b.channel}/${day(b)}`).map((list) => [list[0]!.channel, day(list[0]!), list.map(minute).sort().at(-1), ...statistics(list)]),
};
