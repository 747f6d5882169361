import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetnsLab } from '../src/index.ts';
import { runJmFailover } from './jm-failover.ts';
import { runJmPartition } from './jm-partition.ts';

const HOSTS = ['etcd', 'jm1', 'jm2', 'tm1', 'tm2', 'tm3'];
const unavailable = NetnsLab.unavailable();

/**
 * etcd, two JobManagers and three TaskManagers, each in its own network namespace with its
 * own address. `pnpm chaos jm-failover --runs 20` repeats the first scenario.
 */
describe.skipIf(unavailable !== undefined)(`JobManager failover across network namespaces${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`, () => {
  let lab: NetnsLab;
  beforeAll(() => {
    const created = NetnsLab.create(HOSTS);
    if (typeof created === 'string') throw new Error(created);
    lab = created;
  });
  afterAll(() => lab?.destroy());

  // Once here (the TLS case below takes over the same way): repeated runs are `pnpm chaos jm-failover`'s job, not every CI run's.
  it('SIGKILLed leader: the standby takes over and the running sums are exact', async () => {
    const run = await runJmFailover(lab);
    expect(run.problem).toBe('');
    expect(run.newEpoch).toBeGreaterThan(run.oldEpoch);
  });

  it('with etcd over TLS taking only clients with a certificate of the cluster CA: the standby takes over and the running sums are exact', async () => {
    const run = await runJmFailover(lab, { etcdTls: true });
    expect(run.problem).toBe('');
    expect(run.newEpoch).toBeGreaterThan(run.oldEpoch);
  });

  it('a leader cut off from etcd by iptables is fenced: it steps down before the standby is elected, writes no _metadata after, no TaskManager follows it; exact output after healing', async () => {
    const run = await runJmPartition(lab);
    expect(run.problems, run.logs).toEqual([]);
  });
});
