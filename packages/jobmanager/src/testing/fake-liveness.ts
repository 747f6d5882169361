import type { LivenessProbe, LivenessReport } from '../registry/liveness-probe.ts';

/** One probe a test answers by hand. */
export interface PendingProbe {
  readonly address: string;
  readonly signal: AbortSignal;
  answer(eventLoopLastRanMsAgo: number): Promise<void>;
  fail(message: string): Promise<void>;
}

/** A LivenessProbe whose probes wait until the test answers or fails them. */
export class FakeLivenessProbes {
  readonly sent: PendingProbe[] = [];

  readonly probe: LivenessProbe = (address, signal) =>
    new Promise<LivenessReport>((resolve, reject) => {
      // Settling resolves the probe's promise; the watch reacts a microtask later, so each waits for it.
      const settled = (): Promise<void> => new Promise((done) => setImmediate(done));
      this.sent.push({
        address,
        signal,
        answer: (eventLoopLastRanMsAgo) => {
          resolve({ eventLoopLastRanMsAgo });
          return settled();
        },
        fail: (message) => {
          reject(new Error(message));
          return settled();
        },
      });
    });

  /** The newest probe; throws when none was sent. */
  get latest(): PendingProbe {
    const latest = this.sent.at(-1);
    if (latest === undefined) throw new Error('no probe was sent');
    return latest;
  }
}
