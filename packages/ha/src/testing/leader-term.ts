import { expect, vi } from 'vitest';
import { systemClock, type Logger } from '@weir/common';
import { LeaderElection } from '../election/leader-election.ts';
import type { LeadershipTerm } from '../election/leadership-term.ts';
import { openEtcd } from '../etcd.ts';
import { HaKeys } from '../keys.ts';
import { RecordingContender } from './contender.ts';

/** Campaigns for `clusterId` on the etcd at `endpoint` (2 s lease) and resolves with the term once elected. */
export async function leaderOf(endpoint: string, clusterId: string, logger: Logger): Promise<{ term: LeadershipTerm; election: LeaderElection }> {
  const client = openEtcd({ endpoints: [endpoint] });
  const election = new LeaderElection(client, new HaKeys(clusterId), { endpoints: [endpoint], clusterId, storageDir: '', leaseTtlMs: 2_000, renewIntervalMs: 500 }, { address: 'jm:1' }, systemClock, logger);
  const contender = new RecordingContender();
  election.start(contender);
  await vi.waitFor(() => expect(contender.leading).toBeDefined(), { timeout: 5_000 });
  return { term: contender.leading!, election };
}
