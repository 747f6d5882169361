import { describe, expect, it } from 'vitest';
import { digestOf, hashRow } from './digest.ts';
import { BASE_TIME, EVENT_RATE, FIRST_AUCTION_ID, FIRST_PERSON_ID, nexmarkEvent } from './generator.ts';
import { eventTime } from './model.ts';
import { QUERIES } from './queries.ts';

describe('the Nexmark generator', () => {
  it('makes people, auctions and bids 1:3:46 with timestamps advancing at the event rate', () => {
    const kinds = { person: 0, auction: 0, bid: 0 };
    for (let i = 0; i < 5_000; i++) {
      const e = nexmarkEvent(i);
      kinds['person' in e ? 'person' : 'auction' in e ? 'auction' : 'bid']++;
      expect(eventTime(e)).toBe(BASE_TIME + Math.floor((i * 1000) / EVENT_RATE));
    }
    expect(kinds).toEqual({ person: 100, auction: 300, bid: 4600 });
  });

  it('is a pure function of the event index', () => {
    expect(nexmarkEvent(12_345)).toEqual(nexmarkEvent(12_345));
    expect(nexmarkEvent(12_345)).not.toEqual(nexmarkEvent(12_395));
  });

  it('gives ids from 1000, sizes near the standard averages, and bids referring to people and auctions that exist or are about to', () => {
    let bidExtra = 0;
    let bids = 0;
    for (let i = 0; i < 50_000; i++) {
      const e = nexmarkEvent(i);
      if ('person' in e) expect(e.person.id).toBe(FIRST_PERSON_ID + Math.floor(i / 50));
      if ('bid' in e) {
        bids++;
        bidExtra += e.bid.extra.length;
        expect(e.bid.auction).toBeGreaterThanOrEqual(FIRST_AUCTION_ID);
        // The last auction created so far is 3 per epoch of 50 events, plus a lead of up to 10.
        expect(e.bid.auction).toBeLessThanOrEqual(FIRST_AUCTION_ID + 3 * Math.floor(i / 50) + 2 + 10);
        expect(e.bid.bidder).toBeLessThanOrEqual(FIRST_PERSON_ID + Math.floor(i / 50) + 10);
      }
    }
    // A bid is 4 numbers (32 bytes) and extra padding to an average of 100 bytes.
    expect(bidExtra / bids).toBeGreaterThan(60);
    expect(bidExtra / bids).toBeLessThan(76);
  });
});

describe('the Nexmark reference computations', () => {
  it('give every query a result on a small run, and digests that do not depend on row order', () => {
    for (const query of QUERIES) expect([...query.reference(60_000)].length, query.name).toBeGreaterThan(0);
    const rows = [[1, 'a'], [2, 'b']] as const;
    expect(digestOf(rows)).toEqual(digestOf([...rows].reverse()));
    expect(hashRow([1, 'a'])).not.toBe(hashRow(['a', 1]));
  });
});
