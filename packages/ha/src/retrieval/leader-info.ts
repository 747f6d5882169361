/** Where a JobManager is reached: what it publishes in etcd once it leads. */
export interface LeaderAddresses {
  /** host:port of the JobManager's gRPC server (TaskManagers, clients). */
  readonly address: string;
  /**
   * http://host:port of its REST API, where standby JobManagers forward REST requests.
   * Undefined only in the record of a leader of an older Weir, which published none.
   */
  readonly restUrl?: string;
}

/** What the leader publishes in etcd: where it is and its epoch (fencing token). */
export interface LeaderInfo extends LeaderAddresses {
  readonly epoch: number;
}

export function encodeLeader(leader: LeaderInfo): string {
  return JSON.stringify({ address: leader.address, epoch: leader.epoch, restUrl: leader.restUrl });
}

/**
 * The leader in a `leader` key's value, or undefined when it is not one: an address that is
 * not a non-empty string, an epoch that is not a positive integer, or a REST URL that is
 * there but not an http(s) URL. A record without a REST URL is a leader all the same, so
 * TaskManagers follow a leader of an older version.
 */
export function decodeLeader(value: string): LeaderInfo | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { address, epoch, restUrl } = parsed as Record<string, unknown>;
  if (typeof address !== 'string' || address === '' || !Number.isSafeInteger(epoch) || (epoch as number) <= 0) return undefined;
  if (restUrl === undefined) return { address, epoch: epoch as number };
  return typeof restUrl === 'string' && isHttpUrl(restUrl) ? { address, epoch: epoch as number, restUrl } : undefined;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
  } catch {
    return false;
  }
}
