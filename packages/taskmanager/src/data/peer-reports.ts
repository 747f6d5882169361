import type { Logger } from '@weir/common';

/** Called when a data connection to another TaskManager broke as a hung or dead peer's does. */
export type PeerUnreachableListener = (dataAddress: string, cause: string) => void;

/**
 * Keepalive of data connections, both ends: a peer that does not answer a ping within 3 s
 * (hung, SIGSTOPped, its host gone) breaks its channels 3 to 6 s after it stopped, instead of
 * the 5 to 15 s of the control stream's settings.
 */
export const DATA_KEEPALIVE_MS = 3_000;

/** A peer reported unreachable is not reported again for this long: every channel to it breaks at once. */
const REPORT_INTERVAL_MS = 5_000;

/** No TaskManager registers a longer data address; a consumer names its own, so a longer one is not passed on. */
const MAX_ADDRESS_CHARS = 255;

/**
 * Passes a peer TaskManager whose data connections broke on to the JobManager (which probes
 * it), once per peer every 5 s, whichever side saw it: a consumer whose producer stopped
 * answering, or a producer whose consumer did.
 */
export class PeerReports {
  readonly #lastReported = new Map<string, number>();

  constructor(
    private readonly logger: Logger,
    private readonly listener: PeerUnreachableListener,
    private readonly now: () => number,
  ) {}

  unreachable(dataAddress: string, cause: string): void {
    if (dataAddress === '' || dataAddress.length > MAX_ADDRESS_CHARS) return;
    const now = this.now();
    if (now - (this.#lastReported.get(dataAddress) ?? -Infinity) < REPORT_INTERVAL_MS) return;
    this.#lastReported.set(dataAddress, now);
    this.logger.warn({ peer: dataAddress, cause }, 'a peer TaskManager is unreachable; reporting it to the JobManager');
    this.listener(dataAddress, cause);
  }
}
