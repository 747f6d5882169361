/** What a TaskManager's liveness endpoint answers. */
export interface LivenessReport {
  /** Milliseconds since the TaskManager's event loop last ran (a beat every 200 ms while it runs). */
  readonly eventLoopLastRanMsAgo: number;
}

/**
 * Asks the liveness endpoint at `address` (host:port) how the TaskManager is; rejects when it
 * cannot be reached or answers nonsense, and when `signal` aborts (the caller's deadline).
 */
export type LivenessProbe = (address: string, signal: AbortSignal) => Promise<LivenessReport>;

/** An answer bigger than this is not the endpoint's: its JSON is a few dozen bytes. */
const MAX_ANSWER_CHARS = 1_024;

/**
 * GET http://<address>/liveness. The endpoint is plain HTTP, served by a thread of the
 * TaskManager of its own (taskmanager's `src/liveness/`), so that answering needs neither the
 * TaskManager's event loop nor gRPC in that thread.
 */
export const httpLivenessProbe: LivenessProbe = async (address, signal) => {
  // The address was checked to be host:port at registration; the URL is built around it, never from it.
  const url = new URL('http://localhost/liveness');
  url.host = address;
  const response = await fetch(url, { signal, redirect: 'error' });
  return livenessReport(address, response.status, await response.text());
};

/** The report in a liveness endpoint's answer; throws when the answer is not one. */
export function livenessReport(address: string, status: number, text: string): LivenessReport {
  if (status !== 200) throw new Error(`the liveness endpoint at ${address} answered HTTP ${status}`);
  const lastRan = text.length <= MAX_ANSWER_CHARS ? (JSON.parse(text) as { eventLoopLastRanMsAgo?: unknown }).eventLoopLastRanMsAgo : undefined;
  if (typeof lastRan !== 'number' || !Number.isFinite(lastRan) || lastRan < 0) {
    throw new Error(`the liveness endpoint at ${address} answered without a valid eventLoopLastRanMsAgo`);
  }
  return { eventLoopLastRanMsAgo: lastRan };
}
