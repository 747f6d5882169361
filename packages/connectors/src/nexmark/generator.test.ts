import { describe, expect, it } from 'vitest';
import { BASE_TIME, EVENT_RATE, FIRST_AUCTION_ID, FIRST_PERSON_ID, nexmarkEvent } from './generator.ts';
import { eventTime } from './model.ts';

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

  it('gives bids a channel, half of them hot, and a url that 9 in 10 other channels carry a channel_id in', () => {
    const channels = new Map<string, string>();
    let hot = 0;
    let bids = 0;
    for (let i = 0; i < 20_000; i++) {
      const e = nexmarkEvent(i);
      if (!('bid' in e)) continue;
      bids++;
      if (['Google', 'Facebook', 'Baidu', 'Apple'].includes(e.bid.channel)) hot++;
      else expect(e.bid.channel).toMatch(/^channel-\d+$/);
      expect(e.bid.url).toMatch(/^https:\/\/www\.nexmark\.com\/[^/]+\/[^/]+\/[^/]+\/item\.htm\?query=1(&channel_id=\d+)?$/);
      // A channel always comes with the same url.
      expect(channels.get(e.bid.channel) ?? e.bid.url).toBe(e.bid.url);
      channels.set(e.bid.channel, e.bid.url);
    }
    expect(hot / bids).toBeGreaterThan(0.45);
    expect(hot / bids).toBeLessThan(0.55);
  });
});
