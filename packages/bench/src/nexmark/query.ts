import type { AggregateFunction, Collector, DataStream } from '@weir/api';
import type { Row } from './digest.ts';
import { nexmarkEvent } from '@weir/connectors';
import type { Bid, NexmarkEvent as Event } from '@weir/connectors';

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

export const WINDOW_MS = 10_000;
export const SLIDE_MS = 2_000;
export const SESSION_GAP_MS = 10_000;

export function* events(count: number): Generator<Event> {
  for (let i = 0; i < count; i++) yield nexmarkEvent(i);
}

export function* bidsOf(count: number): Generator<Bid> {
  for (const e of events(count)) if ('bid' in e) yield e.bid;
}

export function bids(stream: DataStream<Event>): DataStream<Bid> {
  return stream.flatMap((e: Event, out: Collector<Bid>) => {
    if ('bid' in e) out.collect(e.bid);
  });
}

/** Counts a window's elements. */
export const count: AggregateFunction<unknown, number, number> = {
  createAccumulator: () => 0,
  add: (_value, accumulator) => accumulator + 1,
  getResult: (accumulator) => accumulator,
  merge: (a, b) => a + b,
};

export function maxOf(values: Iterable<number>): number {
  let max = -Infinity;
  for (const v of values) if (v > max) max = v;
  return max;
}

export function windowStart(time: number): number {
  return time - (time % WINDOW_MS);
}

