import type { Auction, Bid, Event, Person } from './model.ts';
import { EventRandom } from './random.ts';

/**
 * The Nexmark event generator, after the reference generator of github.com/nexmark/nexmark
 * (Flink's) with its default configuration: people, auctions and bids in the proportion
 * 1:3:46, ids starting at 1000 (categories at 10), hot auctions, sellers and bidders, 100
 * auctions in flight, 1000 active people, average sizes of 200, 500 and 100 bytes, and event
 * time advancing by 1e6 / EVENT_RATE microseconds per event from BASE_TIME, in one timeline.
 * Unlike the reference (an unseeded Random), each event draws from a generator seeded by its
 * event id, so `nexmarkEvent(i)` is the same wherever and however often it is called.
 */

const PERSON_PROPORTION = 1;
const AUCTION_PROPORTION = 3;
const BID_PROPORTION = 46;
const TOTAL_PROPORTION = PERSON_PROPORTION + AUCTION_PROPORTION + BID_PROPORTION;

/** The id of the first person the generator creates (Nexmark's reference value). */
export const FIRST_PERSON_ID = 1000;
/** The id of the first auction the generator creates (Nexmark's reference value). */
export const FIRST_AUCTION_ID = 1000;
/** The lowest auction category id (Nexmark's reference value). */
export const FIRST_CATEGORY_ID = 10;
const NUM_CATEGORIES = 5;

const AVG_PERSON_BYTES = 200;
const AVG_AUCTION_BYTES = 500;
const AVG_BID_BYTES = 100;
const HOT_AUCTION_RATIO = 2;
const HOT_SELLERS_RATIO = 4;
const HOT_BIDDERS_RATIO = 4;
/** Groups of this many auctions/people share one hot auction/seller/bidder. */
const HOT_GROUP = 100;
const NUM_IN_FLIGHT_AUCTIONS = 100;
const NUM_ACTIVE_PEOPLE = 1000;
/** Ids this far beyond the last one created may be referenced (an event and its reference swapped in time). */
const ID_LEAD = 10;

/** Event rate of the timeline in event time: events per second (the reference's default). */
export const EVENT_RATE = 10_000;
/** Event time of event 0 (fixed, so every run sees the same events). */
export const BASE_TIME = Date.UTC(2026, 0, 1);
const INTER_EVENT_DELAY_US = 1_000_000 / EVENT_RATE;

/** The event time (ms) of event `eventNumber` on the generator's fixed timeline. */
export function timestampForEvent(eventNumber: number): number {
  return BASE_TIME + Math.floor((eventNumber * INTER_EVENT_DELAY_US) / 1000);
}

/** The kind of event number `i` without making it: 0 person, 1 auction, 2 bid (Nexmark's event_type). */
export function nexmarkEventType(i: number): 0 | 1 | 2 {
  const rem = i % TOTAL_PROPORTION;
  return rem < PERSON_PROPORTION ? 0 : rem < PERSON_PROPORTION + AUCTION_PROPORTION ? 1 : 2;
}

/** Event number `i` of the timeline. */
export function nexmarkEvent(i: number): Event {
  const random = new EventRandom(i);
  const timestamp = timestampForEvent(i);
  const type = nexmarkEventType(i);
  if (type === 0) return { person: nextPerson(i, random, timestamp) };
  if (type === 1) return { auction: nextAuction(i, random, timestamp) };
  return { bid: nextBid(i, random, timestamp) };
}

/** The last person id created up to this event (base 0). */
function lastBase0PersonId(eventId: number): number {
  const epoch = Math.floor(eventId / TOTAL_PROPORTION);
  let offset = eventId % TOTAL_PROPORTION;
  if (offset >= PERSON_PROPORTION) offset = PERSON_PROPORTION - 1;
  return epoch * PERSON_PROPORTION + offset;
}

/** The last auction id created up to this event (base 0). */
function lastBase0AuctionId(eventId: number): number {
  let epoch = Math.floor(eventId / TOTAL_PROPORTION);
  let offset = eventId % TOTAL_PROPORTION;
  if (offset < PERSON_PROPORTION) {
    epoch--;
    offset = AUCTION_PROPORTION - 1;
  } else if (offset >= PERSON_PROPORTION + AUCTION_PROPORTION) {
    offset = AUCTION_PROPORTION - 1;
  } else {
    offset -= PERSON_PROPORTION;
  }
  return epoch * AUCTION_PROPORTION + offset;
}

/** One of the active people, or one a little ahead of the last created (base 0). */
function nextBase0PersonId(eventId: number, random: EventRandom): number {
  const numPeople = lastBase0PersonId(eventId) + 1;
  const active = Math.min(numPeople, NUM_ACTIVE_PEOPLE);
  return numPeople - active + random.nextInt(active + ID_LEAD);
}

/** One of the auctions likely in flight, or one a little ahead of the last created (base 0). */
function nextBase0AuctionId(eventId: number, random: EventRandom): number {
  const max = lastBase0AuctionId(eventId);
  const min = Math.max(max - NUM_IN_FLIGHT_AUCTIONS, 0);
  return min + random.nextInt(max - min + 1 + ID_LEAD);
}

function nextPerson(eventId: number, random: EventRandom, timestamp: number): Person {
  const id = lastBase0PersonId(eventId) + FIRST_PERSON_ID;
  const name = `${pick(FIRST_NAMES, random)} ${pick(LAST_NAMES, random)}`;
  const emailAddress = `${nextString(random, 7)}@${nextString(random, 5)}.com`;
  const creditCard = Array.from({ length: 4 }, () => String(random.nextInt(10_000)).padStart(4, '0')).join(' ');
  const city = pick(US_CITIES, random);
  const state = pick(US_STATES, random);
  const size = 8 + name.length + emailAddress.length + creditCard.length + city.length + state.length;
  return { id, name, emailAddress, creditCard, city, state, dateTime: timestamp, extra: nextExtra(random, size, AVG_PERSON_BYTES) };
}

function nextAuction(eventId: number, random: EventRandom, timestamp: number): Auction {
  const id = lastBase0AuctionId(eventId) + FIRST_AUCTION_ID;
  const seller =
    (random.nextInt(HOT_SELLERS_RATIO) > 0 ? Math.floor(lastBase0PersonId(eventId) / HOT_GROUP) * HOT_GROUP : nextBase0PersonId(eventId, random)) +
    FIRST_PERSON_ID;
  const category = FIRST_CATEGORY_ID + random.nextInt(NUM_CATEGORIES);
  const initialBid = nextPrice(random);
  const expires = timestamp + nextAuctionLengthMs(eventId, random, timestamp);
  const itemName = nextString(random, 20);
  const description = nextString(random, 100);
  const reserve = initialBid + nextPrice(random);
  const size = 8 + itemName.length + description.length + 8 + 8 + 8 + 8 + 8;
  return { id, itemName, description, initialBid, reserve, dateTime: timestamp, expires, seller, category, extra: nextExtra(random, size, AVG_AUCTION_BYTES) };
}

function nextBid(eventId: number, random: EventRandom, timestamp: number): Bid {
  const auction =
    (random.nextInt(HOT_AUCTION_RATIO) > 0 ? Math.floor(lastBase0AuctionId(eventId) / HOT_GROUP) * HOT_GROUP : nextBase0AuctionId(eventId, random)) +
    FIRST_AUCTION_ID;
  const bidder =
    (random.nextInt(HOT_BIDDERS_RATIO) > 0 ? Math.floor(lastBase0PersonId(eventId) / HOT_GROUP) * HOT_GROUP + 1 : nextBase0PersonId(eventId, random)) +
    FIRST_PERSON_ID;
  const price = nextPrice(random);
  const extra = nextExtra(random, 32, AVG_BID_BYTES);
  // Drawn after the other fields, so that those are what they were before channel and url existed.
  const [channel, url] = random.nextInt(HOT_CHANNELS_RATIO) > 0 ? hotChannel(random.nextInt(HOT_CHANNELS.length)) : channelAndUrl(random.nextInt(CHANNELS_NUMBER));
  return { auction, bidder, price, channel, url, dateTime: timestamp, extra };
}

const HOT_CHANNELS_RATIO = 2;
const CHANNELS_NUMBER = 10_000;
const HOT_CHANNELS = ['Google', 'Facebook', 'Baidu', 'Apple'];

/**
 * The reference's base url: https://www.nexmark.com/<a>/<b>/<c>/item.htm?query=1 with three short
 * random path parts. The reference draws its hot urls and channel cache once per process from an
 * unseeded random; here each is a function of its index, so every process agrees.
 */
function baseUrl(random: EventRandom): string {
  const part = (): string => nextString(random, 6).replaceAll(' ', '_') || 'x';
  return `https://www.nexmark.com/${part()}/${part()}/${part()}/item.htm?query=1`;
}

function hotChannel(i: number): [string, string] {
  return [HOT_CHANNELS[i]!, baseUrl(new EventRandom(-1 - i))];
}

const channelCache = new Map<number, [string, string]>();

/** Channel `channel-<i>` and its url, nine in ten with `&channel_id=<i bits reversed>` (as the reference). */
function channelAndUrl(i: number): [string, string] {
  let entry = channelCache.get(i);
  if (entry === undefined) {
    const random = new EventRandom(-100 - i);
    let url = baseUrl(random);
    if (random.nextInt(10) > 0) url += `&channel_id=${Math.abs(reverseBits(i))}`;
    entry = [`channel-${i}`, url];
    channelCache.set(i, entry);
  }
  return entry;
}

/** Java's Integer.reverse: the 32 bits in reverse order, as a signed int. */
function reverseBits(n: number): number {
  let x = n >>> 0;
  let r = 0;
  for (let b = 0; b < 32; b++) {
    r = (r << 1) | (x & 1);
    x >>>= 1;
  }
  return r | 0;
}

/** An auction lasts until about NUM_IN_FLIGHT_AUCTIONS later auctions were created, on average. */
function nextAuctionLengthMs(eventId: number, random: EventRandom, timestamp: number): number {
  const eventsForAuctions = Math.floor((NUM_IN_FLIGHT_AUCTIONS * TOTAL_PROPORTION) / AUCTION_PROPORTION);
  const horizonMs = timestampForEvent(eventId + eventsForAuctions) - timestamp;
  return 1 + random.nextInt(Math.max(horizonMs * 2, 1));
}

/** Prices from 1 to 100 000 000 (cents), log-uniform. */
function nextPrice(random: EventRandom): number {
  return Math.round(10 ** (random.nextDouble() * 6) * 100);
}

const scratch = Buffer.allocUnsafe(1024);

/** Lower-case letters and a space now and then, 3 to maxLength - 1 long, trimmed. */
function nextString(random: EventRandom, maxLength: number): string {
  const length = 3 + random.nextInt(maxLength - 3);
  for (let i = 0; i < length; i++) scratch[i] = random.nextInt(13) === 0 ? 0x20 : 0x61 + random.nextInt(26);
  return scratch.toString('latin1', 0, length).trim();
}

/** Exactly `length` lower-case letters, six from each random number. */
function nextExactString(random: EventRandom, length: number): string {
  let bits = 0;
  let left = 0;
  for (let i = 0; i < length; i++) {
    if (left === 0) {
      bits = random.nextUint32() >>> 1;
      left = 6;
    }
    scratch[i] = 0x61 + (bits % 26);
    bits = Math.floor(bits / 26);
    left--;
  }
  return scratch.toString('latin1', 0, length);
}

/** Padding so that the event is about `averageSize` bytes on average. */
function nextExtra(random: EventRandom, currentSize: number, averageSize: number): string {
  if (currentSize > averageSize) return '';
  const desired = averageSize - currentSize;
  const delta = Math.round(desired * 0.2);
  return nextExactString(random, desired - delta + (delta === 0 ? 0 : random.nextInt(2 * delta)));
}

function pick(values: readonly string[], random: EventRandom): string {
  return values[random.nextInt(values.length)]!;
}

const US_STATES = ['AZ', 'CA', 'ID', 'OR', 'WA', 'WY'];
const US_CITIES = ['Phoenix', 'Los Angeles', 'San Francisco', 'Boise', 'Portland', 'Bend', 'Redmond', 'Seattle', 'Kent', 'Cheyenne'];
const FIRST_NAMES = ['Peter', 'Paul', 'Luke', 'John', 'Saul', 'Vicky', 'Kate', 'Julie', 'Sarah', 'Deiter', 'Walter'];
const LAST_NAMES = ['Shultz', 'Abrams', 'Spencer', 'White', 'Bartels', 'Walton', 'Smith', 'Jones', 'Noris'];
