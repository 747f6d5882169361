import type { LeaderInfo } from '@weir/ha';
import type { RestTarget } from '../rest/leader-forwarding.ts';

const ELECTION = 'no JobManager leads the cluster right now: service temporarily unavailable due to an ongoing leader election; try again in a few seconds';

/**
 * Where a standby (a JobManager without a term) sends REST requests: to the leader etcd names,
 * if that is another JobManager and it published its REST API; otherwise nowhere, with why.
 * A record naming this JobManager is its own (it was just elected and is taking over, or its
 * term just ended): forwarding it would loop.
 */
export function standbyRestTarget(leader: LeaderInfo | undefined, self: string): RestTarget {
  if (leader === undefined) return { kind: 'none', why: ELECTION };
  if (leader.address === self) return { kind: 'none', why: `${ELECTION} (this JobManager, ${self}, is taking over or just stepped down)` };
  if (leader.restUrl === undefined) {
    return { kind: 'none', why: `the leading JobManager ${leader.address} does not publish its REST API (an older Weir): ask it directly at its rest.port` };
  }
  return { kind: 'leader', address: leader.address, restUrl: leader.restUrl };
}
