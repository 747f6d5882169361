import type { JobCheckpointHa } from '../ha/leader-ha.ts';

/**
 * A job's checkpoint IDs: they keep rising across attempts and restores (a restore's ID is
 * never reused), and with high availability they are reserved in etcd, so a new leader
 * continues above its predecessor's.
 */
export class CheckpointIds {
  #last = 0;

  constructor(private readonly ha: JobCheckpointHa | undefined) {}

  /** The highest ID triggered, recovered or restored so far. */
  get last(): number {
    return this.#last;
  }

  /** Checkpoint `id` exists already (recovered from etcd, or restored): IDs continue above it. */
  observe(id: number): void {
    this.#last = Math.max(this.#last, id);
  }

  /** The next checkpoint's ID, or undefined when etcd could not reserve one (the HA side logs the outage). */
  reserve(): number | undefined {
    const id = this.ha === undefined ? this.#last + 1 : this.ha.nextId();
    if (id !== undefined) this.#last = id;
    return id;
  }
}
