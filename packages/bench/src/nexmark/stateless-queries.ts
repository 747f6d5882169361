import {
  type Collector,
} from '@weir/api';
import type { Row } from './digest.ts';
import type { NexmarkEvent as Event } from '@weir/connectors';
import { bids, bidsOf, type NexmarkQuery } from './query.ts';

export const q0: NexmarkQuery = {
  name: 'q0',
  summary: 'pass-through of bids',
  flinkPerCore: 155_020,
  build: (stream) => bids(stream).map((b): Row => [b.auction, b.bidder, b.price, b.dateTime, b.extra]),
  *reference(count) {
    for (const b of bidsOf(count)) yield [b.auction, b.bidder, b.price, b.dateTime, b.extra];
  },
};

const DOLLARS_TO_EUROS = 0.908;

export const q1: NexmarkQuery = {
  name: 'q1',
  summary: 'currency conversion',
  flinkPerCore: 157_940,
  build: (stream) => bids(stream).map((b): Row => [b.auction, b.bidder, DOLLARS_TO_EUROS * b.price, b.dateTime, b.extra]),
  *reference(count) {
    for (const b of bidsOf(count)) yield [b.auction, b.bidder, DOLLARS_TO_EUROS * b.price, b.dateTime, b.extra];
  },
};

export const q2: NexmarkQuery = {
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
