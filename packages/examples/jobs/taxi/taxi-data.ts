// The taxi data of Flink's "Learn Flink" training (flink-training's TaxiRide, TaxiFare and
// DataGenerator), generated in Weir without its data files: every field of a ride is a pure
// function of its rideId, so the starts, ends and fares of one ride agree, and every run of a
// job sees the same stream. A ride starts every 20 s from 2020-01-01T12:00:00Z; most last 5 to
// 44 minutes, about one in 25 lasts over two hours (for the long-ride exercise); about one in
// five starts or ends outside New York City (for the ride-cleansing exercise).
import { WatermarkStrategy, type DataStream, type StreamExecutionEnvironment } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy } from '@weir/connectors';

/** A ride's start or end event (flink-training's TaxiRide). Times are epoch milliseconds. */
export interface TaxiRide {
  readonly rideId: number;
  readonly isStart: boolean;
  /** The start time for a START event, the end time for an END event. */
  readonly eventTime: number;
  readonly startLon: number;
  readonly startLat: number;
  readonly endLon: number;
  readonly endLat: number;
  readonly passengerCnt: number;
  readonly taxiId: number;
  readonly driverId: number;
}

/** A ride's fare, paid at its start (flink-training's TaxiFare). Money in cents, so sums stay exact. */
export interface TaxiFare {
  readonly rideId: number;
  readonly taxiId: number;
  readonly driverId: number;
  readonly startTime: number;
  readonly paymentType: 'CASH' | 'CARD';
  readonly tipCents: number;
  readonly tollsCents: number;
  readonly totalFareCents: number;
}

export const BEGINNING = Date.parse('2020-01-01T12:00:00Z');
export const MS_BETWEEN_RIDES = 20_000;
export const NUMBER_OF_DRIVERS = 200;
/** The events' largest lateness: an END may come after STARTs up to this much later. */
export const MAX_OUT_OF_ORDERNESS_MS = 60_000;

/** New York City, roughly (flink-training's GeoUtils). */
const LON_EAST = -73.7;
const LON_WEST = -74.05;
const LAT_NORTH = 41.0;
const LAT_SOUTH = 40.5;

/** Whether a point is in New York City (flink-training's GeoUtils.isInNYC). */
export function isInNYC(lon: number, lat: number): boolean {
  return !(lon > LON_EAST || lon < LON_WEST) && !(lat > LAT_NORTH || lat < LAT_SOUTH);
}

/** 32 bits mixed from the ride ID and a field number (murmur3's finalizer): the same in every run and process. */
function hash(rideId: number, field: number): number {
  let h = Math.imul(rideId ^ Math.imul(field + 1, 0x9e3779b9), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A number in [min, max) with 4 decimals. */
function between(rideId: number, field: number, min: number, max: number): number {
  return Math.round((min + ((hash(rideId, field) % 1_000_000) / 1_000_000) * (max - min)) * 10_000) / 10_000;
}

export function startTime(rideId: number): number {
  return BEGINNING + rideId * MS_BETWEEN_RIDES;
}

/** 5 to 44 minutes, or 121 to 180 minutes for about one ride in 25. */
export function rideDurationMs(rideId: number): number {
  const long = hash(rideId, 0) % 25 === 0;
  const minutes = long ? 121 + (hash(rideId, 1) % 60) : 5 + (hash(rideId, 1) % 40);
  return minutes * 60_000;
}

export function endTime(rideId: number): number {
  return startTime(rideId) + rideDurationMs(rideId);
}

export function driverId(rideId: number): number {
  return 2013000000 + (hash(rideId, 2) % NUMBER_OF_DRIVERS);
}

/** A ride's START or END event. Coordinates reach 0.01° beyond the city (flink-training: 0.1°), so about one ride in five leaves it. */
export function taxiRide(rideId: number, isStart: boolean): TaxiRide {
  const driver = driverId(rideId);
  return {
    rideId,
    isStart,
    eventTime: isStart ? startTime(rideId) : endTime(rideId),
    startLon: between(rideId, 3, LON_WEST - 0.01, LON_EAST + 0.01),
    startLat: between(rideId, 4, LAT_SOUTH - 0.01, LAT_NORTH + 0.01),
    endLon: between(rideId, 5, LON_WEST - 0.01, LON_EAST + 0.01),
    endLat: between(rideId, 6, LAT_SOUTH - 0.01, LAT_NORTH + 0.01),
    passengerCnt: 1 + (hash(rideId, 7) % 4),
    taxiId: driver + 1000,
    driverId: driver,
  };
}

export function taxiFare(rideId: number): TaxiFare {
  const driver = driverId(rideId);
  const fare = 300 + (hash(rideId, 8) % 6000);
  const tolls = hash(rideId, 9) % 10 === 0 ? 650 : 0;
  const tip = hash(rideId, 10) % 2000;
  return { rideId, taxiId: driver + 1000, driverId: driver, startTime: startTime(rideId), paymentType: hash(rideId, 11) % 2 === 0 ? 'CARD' : 'CASH', tipCents: tip, tollsCents: tolls, totalFareCents: fare + tolls + tip };
}

/**
 * The ride events of rides 1..count in the order a generator emits them: by event time (a
 * START before an END at the same time), rides 1..count (flink-training's TaxiRideGenerator
 * emits in batches with some disorder; here the order is exact, so expected outputs are too).
 */
export function rideEvents(count: number): TaxiRide[] {
  const events: TaxiRide[] = [];
  for (let id = 1; id <= count; id++) events.push(taxiRide(id, true), taxiRide(id, false));
  return events.sort((a, b) => a.eventTime - b.eventTime || Number(b.isStart) - Number(a.isStart) || a.rideId - b.rideId);
}

/** `count` rides' events as a stream with event-time timestamps, generated by one reader at `perSecond` events/s (0: unthrottled). */
export function rideStream(env: StreamExecutionEnvironment, count: number, perSecond = 0): DataStream<TaxiRide> {
  let events: TaxiRide[] | undefined;
  // Built once per reader: the generator asks for one index at a time.
  const generate = (i: number): TaxiRide => (events ??= rideEvents(count))[i]!;
  return env
    .fromSource(new DataGeneratorSource(generate, 2 * count, perSecond > 0 ? RateLimiterStrategy.perSecond(perSecond) : RateLimiterStrategy.noOp()), WatermarkStrategy.forBoundedOutOfOrderness<TaxiRide>(MAX_OUT_OF_ORDERNESS_MS).withTimestampAssigner((r) => r.eventTime), 'taxi-rides')
    .setParallelism(1);
}

/** The fares of rides 1..count, in start order, with event-time timestamps. */
export function fareStream(env: StreamExecutionEnvironment, count: number, perSecond = 0): DataStream<TaxiFare> {
  return env
    .fromSource(new DataGeneratorSource((i) => taxiFare(i + 1), count, perSecond > 0 ? RateLimiterStrategy.perSecond(perSecond) : RateLimiterStrategy.noOp()), WatermarkStrategy.forBoundedOutOfOrderness<TaxiFare>(MAX_OUT_OF_ORDERNESS_MS).withTimestampAssigner((f) => f.startTime), 'taxi-fares')
    .setParallelism(1);
}
