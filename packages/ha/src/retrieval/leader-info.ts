/** What the leader publishes in etcd: where it is and its epoch (fencing token). */
export interface LeaderInfo {
  /** host:port of the JobManager's gRPC server. */
  readonly address: string;
  readonly epoch: number;
}

export function encodeLeader(leader: LeaderInfo): string {
  return JSON.stringify({ address: leader.address, epoch: leader.epoch });
}

/** The leader in a `leader` key's value, or undefined when it is not one. */
export function decodeLeader(value: string): LeaderInfo | undefined {
  try {
    const parsed = JSON.parse(value) as Partial<LeaderInfo>;
    if (typeof parsed.address === 'string' && typeof parsed.epoch === 'number' && parsed.address !== '') return { address: parsed.address, epoch: parsed.epoch };
  } catch {
    // not JSON
  }
  return undefined;
}
