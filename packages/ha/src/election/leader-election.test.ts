import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger, systemClock } from '@weir/common';
import type { Etcd3 } from 'etcd3';
import { openEtcd } from '../etcd.ts';
import { HaKeys } from '../keys.ts';
import { LeaderRetrieval } from '../retrieval/leader-retrieval.ts';
import type { LeaderInfo } from '../retrieval/leader-info.ts';
import type { HaSettings } from '../settings.ts';
import { RecordingContender } from '../testing/contender.ts';
import { startEtcd, type EtcdServer } from '../testing/etcd-server.ts';
import { LeaderElection } from './leader-election.ts';

const logger = createLogger('test');
logger.level = 'silent';
let etcd: EtcdServer;
const cleanups: (() => Promise<unknown> | unknown)[] = [];

beforeAll(async () => {
  etcd = await startEtcd();
  return () => etcd.remove();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function settings(clusterId: string): HaSettings {
  return { endpoints: [etcd.endpoint], clusterId, storageDir: '', leaseTtlMs: 2_000, renewIntervalMs: 500 };
}

function client(): Etcd3 {
  const c = openEtcd({ endpoints: [etcd.endpoint] });
  cleanups.push(() => c.close());
  return c;
}

function candidate(clusterId: string, address: string): { election: LeaderElection; contender: RecordingContender } {
  const restUrl = `http://${address.split(':')[0]}:8081`;
  const election = new LeaderElection(client(), new HaKeys(clusterId), settings(clusterId), { address, restUrl }, systemClock, logger);
  const contender = new RecordingContender();
  election.start(contender);
  cleanups.push(() => election.close());
  return { election, contender };
}

describe('leader election on an etcd lease', () => {
  it('elects one leader, publishes its addresses and epoch, and hands over with a higher epoch when it resigns', async () => {
    const first = candidate('c1', 'jm-1:6123');
    await vi.waitFor(() => expect(first.contender.leading).toBeDefined(), { timeout: 5_000 });
    const second = candidate('c1', 'jm-2:6123');
    const seen: (LeaderInfo | undefined)[] = [];
    const retrieval = new LeaderRetrieval(client(), new HaKeys('c1'), logger);
    cleanups.push(() => retrieval.close());
    await retrieval.start((leader) => seen.push(leader));
    expect(seen).toEqual([{ address: 'jm-1:6123', restUrl: 'http://jm-1:8081', epoch: first.contender.leading!.epoch }]);
    await new Promise((r) => setTimeout(r, 300));
    expect(second.contender.granted).toEqual([]);

    const started = Date.now();
    await first.election.close();
    await vi.waitFor(() => expect(second.contender.leading).toBeDefined(), { timeout: 5_000 });
    // Resigning revokes the lease: the standby need not wait for the TTL.
    expect(Date.now() - started).toBeLessThan(1_500);
    const [old, next] = [first.contender.granted[0]!, second.contender.leading!];
    expect(next.epoch).toBeGreaterThan(old.epoch);
    expect(first.contender.revoked).toEqual([{ epoch: old.epoch, reason: 'the JobManager is shutting down' }]);
    await vi.waitFor(() => expect(seen.at(-1)).toEqual({ address: 'jm-2:6123', restUrl: 'http://jm-2:8081', epoch: next.epoch }));
    await expect(old.commit('write as the old leader', [])).rejects.toMatchObject({ code: 'LEADERSHIP_LOST' });
  });

  it('refuses a guarded write of a leader whose candidate key is gone, without the process noticing first', async () => {
    const leader = candidate('c2', 'jm-1:6123');
    await vi.waitFor(() => expect(leader.contender.leading).toBeDefined(), { timeout: 5_000 });
    const term = leader.contender.leading!;
    await client().delete().key(term.candidateKey);
    await expect(term.commit('write behind a deleted key', [])).rejects.toMatchObject({ code: 'LEADERSHIP_LOST' });
  });
});
