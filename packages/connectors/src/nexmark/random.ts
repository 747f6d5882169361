/**
 * A small, fast seeded random generator (mulberry32). Each Nexmark event draws from a generator
 * seeded by its own event id, as Beam's Nexmark generator did, so an event is a pure function of
 * its index: parallel readers, restored readers and the reference computation all see the same
 * events.
 */
export class EventRandom {
  #state: number;

  constructor(seed: number) {
    // Spread consecutive seeds over the state space.
    this.#state = Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) >>> 0;
  }

  /** Uniform in [0, 2^32). */
  nextUint32(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform in [0, 1). */
  nextDouble(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  nextInt(n: number): number {
    return Math.floor(this.nextDouble() * n);
  }
}
