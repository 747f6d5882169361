import {
  KeyedCoProcessFunction,
  KeyedProcessFunction,
  ListStateDescriptor,
  Types,
  ValueStateDescriptor,
  type Collector,
  type KeyedProcessContext,
  type ListState,
  type OnTimerContext,
  type ValueState,
} from '@weir/api';
import type { Row } from './digest.ts';
import type { Auction, Bid, NexmarkEvent as Event, Person } from '@weir/connectors';
import { bids, events, type NexmarkQuery } from './query.ts';

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

export const q3: NexmarkQuery = {
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

export const q4: NexmarkQuery = {
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

