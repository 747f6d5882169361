import {
  EventTimeSessionWindows,
  KeyedCoProcessFunction,
  KeyedProcessFunction,
  ListStateDescriptor,
  ProcessAllWindowFunction,
  ProcessWindowFunction,
  SlidingEventTimeWindows,
  TumblingEventTimeWindows,
  Types,
  ValueStateDescriptor,
  type AggregateFunction,
  type Collector,
  type DataStream,
  type KeyedProcessContext,
  type ListState,
  type OnTimerContext,
  type ProcessAllWindowContext,
  type ProcessWindowContext,
  type TimeWindow,
  type ValueState,
} from '@weir/api';
import type { Row } from './digest.ts';
import { nexmarkEvent } from './generator.ts';
import type { Auction, Bid, Event, Person } from './model.ts';

/**
 * The Nexmark queries as DataStream jobs (the SQL of github.com/nexmark/nexmark, written with
 * Weir's DataStream API), each with a plain single-process computation of the same result from
 * the same events, which the benchmark checks every run against.
 */
export interface NexmarkQuery {
  readonly name: string;
  readonly summary: string;
  /** Throughput per core of Flink 1.13 on this query, events/s, from the Nexmark README (github.com/nexmark/nexmark). */
  readonly flinkPerCore: number;
  /** The query's operators after the source; the rows go to the benchmark's sink. */
  build(events: DataStream<Event>): DataStream<Row>;
  /** The same query over events 0..count-1 in one process. */
  reference(count: number): Iterable<Row>;
  /** An updating query: only the last row per key counts (the result once every update arrived). */
  readonly finalKey?: (row: Row) => string | number;
}

const WINDOW_MS = 10_000;
const SLIDE_MS = 2_000;
const SESSION_GAP_MS = 10_000;

function* events(count: number): Generator<Event> {
  for (let i = 0; i < count; i++) yield nexmarkEvent(i);
}

function* bidsOf(count: number): Generator<Bid> {
  for (const e of events(count)) if ('bid' in e) yield e.bid;
}

function bids(stream: DataStream<Event>): DataStream<Bid> {
  return stream.flatMap((e: Event, out: Collector<Bid>) => {
    if ('bid' in e) out.collect(e.bid);
  });
}

const q0: NexmarkQuery = {
  name: 'q0',
  summary: 'pass-through of bids',
  flinkPerCore: 155_020,
  build: (stream) => bids(stream).map((b): Row => [b.auction, b.bidder, b.price, b.dateTime, b.extra]),
  *reference(count) {
    for (const b of bidsOf(count)) yield [b.auction, b.bidder, b.price, b.dateTime, b.extra];
  },
};

const DOLLARS_TO_EUROS = 0.908;

const q1: NexmarkQuery = {
  name: 'q1',
  summary: 'currency conversion',
  flinkPerCore: 157_940,
  build: (stream) => bids(stream).map((b): Row => [b.auction, b.bidder, DOLLARS_TO_EUROS * b.price, b.dateTime, b.extra]),
  *reference(count) {
    for (const b of bidsOf(count)) yield [b.auction, b.bidder, DOLLARS_TO_EUROS * b.price, b.dateTime, b.extra];
  },
};

const q2: NexmarkQuery = {
  name: 'q2',
  summary: 'selection: bids of auctions with id divisible by 123',
  flinkPerCore: 175_210,
  build: (stream) =>
    stream.flatMap((e: Event, out: Collector<Row>) => {
      if ('bid' in e && e.bid.auction % 123 === 0) out.collect([e.bid.auction, e.bid.price]);
    }),
  *reference(count) {
    for (const b of bidsOf(count)) if (b.auction % 123 === 0) yield [b.auction, b.price];
  },
};

const Q3_STATES = new Set(['OR', 'ID', 'CA']);
const Q3_CATEGORY = 10;

/** Persons of OR, ID or CA joined with their auctions of category 10, whichever comes first. */
class LocalItemSuggestion extends KeyedCoProcessFunction<number, Person, Auction, Row> {
  private person!: ValueState<Person>;
  private waiting!: ListState<number>;

  override open(): void {
    this.person = this.getRuntimeContext().getState(new ValueStateDescriptor<Person>('person', Types.GENERIC()));
    this.waiting = this.getRuntimeContext().getListState(new ListStateDescriptor<number>('waiting-auctions', Types.NUMBER));
  }

  processElement1(person: Person, _ctx: KeyedProcessContext<number>, out: Collector<Row>): void {
    this.person.update(person);
    for (const auction of this.waiting.get()) out.collect([person.name, person.city, person.state, auction]);
    this.waiting.clear();
  }

  processElement2(auction: Auction, _ctx: KeyedProcessContext<number>, out: Collector<Row>): void {
    const person = this.person.value();
    if (person === undefined) this.waiting.add(auction.id);
    else out.collect([person.name, person.city, person.state, auction.id]);
  }
}

const q3: NexmarkQuery = {
  name: 'q3',
  summary: 'local item suggestion: persons of OR, ID, CA joined with their auctions of category 10',
  flinkPerCore: 152_120,
  build(stream) {
    const persons = stream.flatMap((e: Event, out: Collector<Person>) => {
      if ('person' in e && Q3_STATES.has(e.person.state)) out.collect(e.person);
    });
    const auctions = stream.flatMap((e: Event, out: Collector<Auction>) => {
      if ('auction' in e && e.auction.category === Q3_CATEGORY) out.collect(e.auction);
    });
    return persons
      .connect(auctions)
      .keyBy(
        (p: Person) => p.id,
        (a: Auction) => a.seller,
      )
      .process(new LocalItemSuggestion());
  },
  *reference(count) {
    const persons = new Map<number, Person>();
    const auctions: Auction[] = [];
    for (const e of events(count)) {
      if ('person' in e && Q3_STATES.has(e.person.state)) persons.set(e.person.id, e.person);
      if ('auction' in e && e.auction.category === Q3_CATEGORY) auctions.push(e.auction);
    }
    for (const a of auctions) {
      const p = persons.get(a.seller);
      if (p !== undefined) yield [p.name, p.city, p.state, a.id];
    }
  },
};

interface OpenAuction {
  readonly category: number;
  readonly dateTime: number;
  readonly expires: number;
}

/**
 * Per auction: the highest bid placed between its start and its expiry, emitted as
 * [category, price] when it expires (an event-time timer). Bids that come before their auction
 * wait for it; bids after it closed are dropped.
 */
class WinningBids extends KeyedCoProcessFunction<number, Auction, Bid, Row> {
  private auction!: ValueState<OpenAuction>;
  private best!: ValueState<number>;
  private early!: ListState<[number, number]>;
  private closed!: ValueState<boolean>;

  override open(): void {
    const context = this.getRuntimeContext();
    this.auction = context.getState(new ValueStateDescriptor<OpenAuction>('auction', Types.GENERIC()));
    this.best = context.getState(new ValueStateDescriptor<number>('best-price', Types.NUMBER));
    this.early = context.getListState(new ListStateDescriptor<[number, number]>('early-bids', Types.GENERIC()));
    this.closed = context.getState(new ValueStateDescriptor<boolean>('closed', Types.BOOLEAN));
  }

  processElement1(auction: Auction, ctx: KeyedProcessContext<number>): void {
    const open: OpenAuction = { category: auction.category, dateTime: auction.dateTime, expires: auction.expires };
    this.auction.update(open);
    for (const [price, dateTime] of this.early.get()) this.#bid(open, price, dateTime);
    this.early.clear();
    ctx.timerService().registerEventTimeTimer(auction.expires);
  }

  processElement2(bid: Bid): void {
    if (this.closed.value() === true) return;
    const open = this.auction.value();
    if (open === undefined) this.early.add([bid.price, bid.dateTime]);
    else this.#bid(open, bid.price, bid.dateTime);
  }

  override onTimer(_timestamp: number, _ctx: OnTimerContext<number>, out: Collector<Row>): void {
    const open = this.auction.value();
    const best = this.best.value();
    if (open !== undefined && best !== undefined) out.collect([open.category, best]);
    this.auction.clear();
    this.best.clear();
    this.closed.update(true);
  }

  #bid(open: OpenAuction, price: number, dateTime: number): void {
    if (dateTime < open.dateTime || dateTime > open.expires) return;
    const best = this.best.value();
    if (best === undefined || price > best) this.best.update(price);
  }
}

/** The running average of the winning prices per category: an updating result, [category, average]. */
class AveragePrice extends KeyedProcessFunction<number, Row, Row> {
  private sum!: ValueState<number>;
  private count!: ValueState<number>;

  override open(): void {
    this.sum = this.getRuntimeContext().getState(new ValueStateDescriptor<number>('sum', Types.NUMBER));
    this.count = this.getRuntimeContext().getState(new ValueStateDescriptor<number>('count', Types.NUMBER));
  }

  processElement(row: Row, _ctx: KeyedProcessContext<number>, out: Collector<Row>): void {
    const sum = (this.sum.value() ?? 0) + (row[1] as number);
    const count = (this.count.value() ?? 0) + 1;
    this.sum.update(sum);
    this.count.update(count);
    out.collect([row[0]!, sum / count]);
  }
}

const q4: NexmarkQuery = {
  name: 'q4',
  summary: 'average winning price per category',
  flinkPerCore: 34_330,
  build(stream) {
    const auctions = stream.flatMap((e: Event, out: Collector<Auction>) => {
      if ('auction' in e) out.collect(e.auction);
    });
    return auctions
      .connect(bids(stream))
      .keyBy(
        (a: Auction) => a.id,
        (b: Bid) => b.auction,
      )
      .process(new WinningBids())
      .keyBy((row: Row) => row[0] as number)
      .process(new AveragePrice());
  },
  finalKey: (row) => row[0]!,
  *reference(count) {
    const auctions = new Map<number, Auction>();
    const allBids: Bid[] = [];
    for (const e of events(count)) {
      if ('auction' in e) auctions.set(e.auction.id, e.auction);
      else if ('bid' in e) allBids.push(e.bid);
    }
    const best = new Map<number, number>();
    for (const b of allBids) {
      const a = auctions.get(b.auction);
      if (a === undefined || b.dateTime < a.dateTime || b.dateTime > a.expires) continue;
      best.set(a.id, Math.max(best.get(a.id) ?? -Infinity, b.price));
    }
    const categories = new Map<number, { sum: number; count: number }>();
    for (const [id, price] of best) {
      const category = auctions.get(id)!.category;
      const c = categories.get(category) ?? { sum: 0, count: 0 };
      categories.set(category, { sum: c.sum + price, count: c.count + 1 });
    }
    for (const [category, c] of categories) yield [category, c.sum / c.count];
  },
};

/** Counts a window's elements. */
const count: AggregateFunction<unknown, number, number> = {
  createAccumulator: () => 0,
  add: (_value, accumulator) => accumulator + 1,
  getResult: (accumulator) => accumulator,
  merge: (a, b) => a + b,
};

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

const q5: NexmarkQuery = {
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

const q7: NexmarkQuery = {
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

const q8: NexmarkQuery = {
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

function maxOf(values: Iterable<number>): number {
  let max = -Infinity;
  for (const v of values) if (v > max) max = v;
  return max;
}

function windowStart(time: number): number {
  return time - (time % WINDOW_MS);
}

class BidderSession extends ProcessWindowFunction<number, Row, number, TimeWindow> {
  override process(bidder: number, context: ProcessWindowContext<TimeWindow>, counts: Iterable<number>, out: Collector<Row>): void {
    const window = context.window();
    for (const n of counts) out.collect([bidder, n, window.start, window.end]);
  }
}

const q11: NexmarkQuery = {
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

export const QUERIES: readonly NexmarkQuery[] = [q0, q1, q2, q3, q4, q5, q7, q8, q11];
