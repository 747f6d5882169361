/**
 * The Nexmark model (an online auction): people, auctions and bids with the standard fields of
 * the Nexmark benchmark (github.com/nexmark/nexmark). Times are milliseconds since the epoch.
 */
export interface Person {
  readonly id: number;
  readonly name: string;
  readonly emailAddress: string;
  readonly creditCard: string;
  readonly city: string;
  readonly state: string;
  readonly dateTime: number;
  readonly extra: string;
}

/** A Nexmark auction: an item a seller puts up, with its reserve and the time it closes. */
export interface Auction {
  readonly id: number;
  readonly itemName: string;
  readonly description: string;
  readonly initialBid: number;
  readonly reserve: number;
  readonly dateTime: number;
  readonly expires: number;
  readonly seller: number;
  readonly category: number;
  readonly extra: string;
}

/** A Nexmark bid: a bidder's price on an auction. */
export interface Bid {
  readonly auction: number;
  readonly bidder: number;
  readonly price: number;
  /** Where the bid came from: one of 4 hot channels or `channel-<n>` of 10 000 (Nexmark's v0.2 fields). */
  readonly channel: string;
  readonly url: string;
  readonly dateTime: number;
  readonly extra: string;
}

/** One event: exactly one of the three. */
export type Event = { readonly person: Person } | { readonly auction: Auction } | { readonly bid: Bid };

/** The event's time: its person's, auction's or bid's dateTime. */
export function eventTime(event: Event): number {
  return 'bid' in event ? event.bid.dateTime : 'auction' in event ? event.auction.dateTime : event.person.dateTime;
}
