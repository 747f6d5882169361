import type { TaskManagerServiceClient } from '@weir/rpc';
import type { PemSource } from '@weir/security';
import { createJobManagerClient } from './jobmanager-client.ts';

/** The JobManager to register with: where it is, its leader epoch (0 without HA) and a client for it. */
export interface JobManagerTarget {
  readonly address: string;
  readonly epoch: number;
  readonly client: TaskManagerServiceClient;
}

/**
 * The JobManager this TaskManager works for: a fixed address without HA, or whichever leader
 * etcd names. It also keeps the newest leader epoch seen (in etcd or on a message), below
 * which every JobManager message is refused.
 */
export class JobManagerTargets {
  #current: JobManagerTarget | undefined;
  #highestEpoch = 0;

  /** `fixed`: the configured JobManager address, without HA; `keepaliveTimeoutMs`: heartbeat.timeout, `tls`: the node certificate (createJobManagerClient). */
  constructor(
    fixed: string | undefined,
    private readonly keepaliveTimeoutMs: number,
    private readonly tls?: PemSource,
  ) {
    if (fixed !== undefined) this.#current = { address: fixed, epoch: 0, client: createJobManagerClient(fixed, keepaliveTimeoutMs, tls) };
  }

  current(): JobManagerTarget | undefined {
    return this.#current;
  }

  get highestEpoch(): number {
    return this.#highestEpoch;
  }

  /** A message or registration showed this epoch leading. */
  observe(epoch: number): void {
    this.#highestEpoch = Math.max(this.#highestEpoch, epoch);
  }

  /** etcd names a new leader (undefined: none right now); true when the target changed. */
  leaderChanged(leader: { address: string; epoch: number } | undefined): boolean {
    if (leader === undefined || leader.epoch < this.#highestEpoch) return false;
    this.observe(leader.epoch);
    const previous = this.#current;
    if (previous?.address === leader.address && previous.epoch === leader.epoch) return false;
    this.#current = { address: leader.address, epoch: leader.epoch, client: previous?.address === leader.address ? previous.client : createJobManagerClient(leader.address, this.keepaliveTimeoutMs, this.tls) };
    if (previous !== undefined && previous.client !== this.#current.client) previous.client.close();
    return true;
  }

  close(): void {
    this.#current?.client.close();
  }
}
