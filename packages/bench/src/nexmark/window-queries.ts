import {
  EventTimeSessionWindows,
  KeyedProcessFunction,
  ListStateDescriptor,
  ProcessAllWindowFunction,
  ProcessWindowFunction,
  SlidingEventTimeWindows,
  TumblingEventTimeWindows,
  Types,
  type AggregateFunction,
  type Collector,
  type KeyedProcessContext,
  type ListState,
  type OnTimerContext,
  type ProcessAllWindowContext,
  type ProcessWindowContext,
  type TimeWindow,
} from '@weir/api';
import type { Row } from './digest.ts';
import type { Bid, NexmarkEvent as Event, Person } from '@weir/connectors';
import { SESSION_GAP_MS, SLIDE_MS, WINDOW_MS, bids, bidsOf, count, events, maxOf, windowStart, type NexmarkQuery } from './query.ts';

/** [auction, bids, window end] for each auction's sliding window. */
class AuctionWindowCount extends ProcessWindowFunction<number, Row, number, TimeWindow> {
  override process(auction: number, context: ProcessWindowContext<TimeWindow>, counts: Iterable<number>, out: Collector<Row>): void {
    for (const n of counts) out.collect([auction, n, context.window().end]);
  }
}

/** Per window end: the auctions with the most bids, once every count of the window is in (an event-time timer at the window's last millisecond). */
class HottestAuctions extends KeyedProcessFunction<number, Row, Row> {
  private counts!: ListState<Row>;

  override open(): void {
    this.counts = this.getRuntimeContext().getListState(new ListStateDescriptor<Row>('counts', Types.GENERIC()));
  }

  processElement(row: Row, ctx: KeyedProcessContext<number>): void {
    this.counts.add(row);
    ctx.timerService().registerEventTimeTimer((row[2] as number) - 1);
  }

  override onTimer(_timestamp: number, _ctx: OnTimerContext<number>, out: Collector<Row>): void {
    const rows = [...this.counts.get()];
    const max = maxOf(rows.map((r) => r[1] as number));
    for (const r of rows) if (r[1] === max) out.collect(r);
    this.counts.clear();
  }
}

export const q5: NexmarkQuery = {
  name: 'q5',
  summary: 'hot items: the auctions with the most bids per 10 s window sliding by 2 s',
  flinkPerCore: 22_140,
  build: (stream) =>
    bids(stream)
      .keyBy((b: Bid) => b.auction)
      .window(SlidingEventTimeWindows.of(WINDOW_MS, SLIDE_MS))
      .aggregate(count, new AuctionWindowCount())
      .keyBy((row: Row) => row[2] as number)
      .process(new HottestAuctions()),
  *reference(count) {
    const perWindow = new Map<number, Map<number, number>>();
    for (const b of bidsOf(count)) {
      const lastStart = b.dateTime - (b.dateTime % SLIDE_MS);
      for (let start = lastStart; start > b.dateTime - WINDOW_MS; start -= SLIDE_MS) {
        const end = start + WINDOW_MS;
        let auctions = perWindow.get(end);
        if (auctions === undefined) perWindow.set(end, (auctions = new Map()));
        auctions.set(b.auction, (auctions.get(b.auction) ?? 0) + 1);
      }
    }
    for (const [end, auctions] of perWindow) {
      const max = maxOf(auctions.values());
      for (const [auction, n] of auctions) if (n === max) yield [auction, n, end];
    }
  },
};

interface HighestBids {
  max: number;
  bids: Bid[];
}

/** Keeps the bids of the highest price seen. */
const highestBids: AggregateFunction<Bid, HighestBids, HighestBids> = {
  createAccumulator: () => ({ max: -Infinity, bids: [] }),
  add(bid, acc) {
    if (bid.price > acc.max) return { max: bid.price, bids: [bid] };
    if (bid.price === acc.max) acc.bids.push(bid);
    return acc;
  },
  getResult: (acc) => acc,
  merge: (a, b) => (a.max > b.max ? a : b.max > a.max ? b : { max: a.max, bids: [...a.bids, ...b.bids] }),
};

class EmitHighestBids extends ProcessAllWindowFunction<HighestBids, Row, TimeWindow> {
  override process(_context: ProcessAllWindowContext<TimeWindow>, results: Iterable<HighestBids>, out: Collector<Row>): void {
    for (const { bids: highest } of results) for (const b of highest) out.collect([b.auction, b.price, b.bidder, b.dateTime, b.extra]);
  }
}

export const q7: NexmarkQuery = {
  name: 'q7',
  summary: 'highest bid: the bids with the highest price per 10 s tumbling window',
  flinkPerCore: 12_330,
  build: (stream) => bids(stream).windowAll(TumblingEventTimeWindows.of(WINDOW_MS)).aggregate(highestBids, new EmitHighestBids()),
  *reference(count) {
    const windows = new Map<number, HighestBids>();
    for (const b of bidsOf(count)) {
      const start = b.dateTime - (b.dateTime % WINDOW_MS);
      windows.set(start, highestBids.add(b, windows.get(start) ?? highestBids.createAccumulator()));
    }
    for (const { bids: highest } of windows.values()) for (const b of highest) yield [b.auction, b.price, b.bidder, b.dateTime, b.extra];
  },
};

/** A new person, or an auction of a seller, in q8's keyed union. */
interface Newcomer {
  readonly id: number;
  readonly name: string;
  readonly auction: boolean;
}

class NewUsers extends ProcessWindowFunction<Newcomer, Row, number, TimeWindow> {
  override process(id: number, context: ProcessWindowContext<TimeWindow>, elements: Iterable<Newcomer>, out: Collector<Row>): void {
    const all = [...elements];
    if (!all.some((e) => e.auction)) return;
    for (const e of all) if (!e.auction) out.collect([id, e.name, context.window().start]);
  }
}

export const q8: NexmarkQuery = {
  name: 'q8',
  summary: 'monitor new users: persons who created an auction in the 10 s tumbling window they joined in',
  flinkPerCore: 146_140,
  build(stream) {
    const newcomers = stream.flatMap((e: Event, out: Collector<Newcomer>) => {
      if ('person' in e) out.collect({ id: e.person.id, name: e.person.name, auction: false });
      else if ('auction' in e) out.collect({ id: e.auction.seller, name: '', auction: true });
    });
    return newcomers
      .keyBy((n: Newcomer) => n.id)
      .window(TumblingEventTimeWindows.of(WINDOW_MS))
      .process(new NewUsers());
  },
  *reference(count) {
    const persons = new Map<string, Person>();
    const sellers = new Set<string>();
    for (const e of events(count)) {
      if ('person' in e) persons.set(`${e.person.id}/${windowStart(e.person.dateTime)}`, e.person);
      else if ('auction' in e) sellers.add(`${e.auction.seller}/${windowStart(e.auction.dateTime)}`);
    }
    for (const [key, p] of persons) if (sellers.has(key)) yield [p.id, p.name, windowStart(p.dateTime)];
  },
};

class BidderSession extends ProcessWindowFunction<number, Row, number, TimeWindow> {
  override process(bidder: number, context: ProcessWindowContext<TimeWindow>, counts: Iterable<number>, out: Collector<Row>): void {
    const window = context.window();
    for (const n of counts) out.collect([bidder, n, window.start, window.end]);
  }
}

export const q11: NexmarkQuery = {
  name: 'q11',
  summary: 'user sessions: bids per bidder per session (10 s gap)',
  flinkPerCore: 39_700,
  build: (stream) =>
    bids(stream)
      .keyBy((b: Bid) => b.bidder)
      .window(EventTimeSessionWindows.withGap(SESSION_GAP_MS))
      .aggregate(count, new BidderSession()),
  *reference(count) {
    const times = new Map<number, number[]>();
    for (const b of bidsOf(count)) {
      const list = times.get(b.bidder);
      if (list === undefined) times.set(b.bidder, [b.dateTime]);
      else list.push(b.dateTime);
    }
    for (const [bidder, list] of times) {
      list.sort((a, b) => a - b);
      let start = list[0]!;
      let end = start + SESSION_GAP_MS;
      let n = 0;
      for (const t of list) {
        // Session windows [t, t + gap) merge when they touch, as Flink's TimeWindow.intersects.
        if (t > end) {
          yield [bidder, n, start, end];
          start = t;
          n = 0;
        }
        end = Math.max(end, t + SESSION_GAP_MS);
        n++;
      }
      yield [bidder, n, start, end];
    }
  },
};
