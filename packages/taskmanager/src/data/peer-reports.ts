import type { Logger } from '@weir/common';

/** Called when a data connection to another TaskManager broke as a hung or dead peer's does. */
export type PeerUnreachableListener = (dataAddress: string, cause: string) => void;

/**
 * Keepalive of data connections, both ends: a ping every 3 s, each waiting `timeoutMs`
 * (heartbeat.timeout, default 50 s) for its answer. Not less: a peer whose event loop is busy
 * answers no ping until it runs again, and neither side may break a healthy connection for
 * that (the data it owes just arrives late); worse, the ping's deadline is a timer, and after
 * a block of this side's own loop timers run before the answer waiting in the socket is read.
 * Stopped and unreachable TaskManagers are found by the JobManager's liveness probes within
 * seconds instead; this only ends connections to a peer nobody else finds out of reach.
 */
export function dataKeepalive(timeoutMs: number): { 'grpc.keepalive_time_ms': number; 'grpc.keepalive_timeout_ms': number } {
  return { 'grpc.keepalive_time_ms': 3_000, 'grpc.keepalive_timeout_ms': timeoutMs };
}

/** heartbeat.timeout's default, for data connections built without a configuration (tests). */
export const DEFAULT_KEEPALIVE_TIMEOUT_MS = 50_000;

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
