import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger, defaultConfig, systemClock } from '@weir/common';
import { openStorage, s3SettingsFromConfig } from '@weir/storage';
import { HaCheckpointStore } from './checkpoints/checkpoint-store.ts';
import { claimClusterId } from './cluster-identity.ts';
import { LeaderElection } from './election/leader-election.ts';
import type { LeadershipTerm } from './election/leadership-term.ts';
import { openEtcd } from './etcd.ts';
import { EtcdHaServices } from './ha-services.ts';
import { HaJobStatus, decodeSubmission } from './jobs/job-records.ts';
import { HaKeys } from './keys.ts';
import { RecordingContender } from './testing/contender.ts';
import { startEtcd, type EtcdServer } from './testing/etcd-server.ts';
import { leaderOf as electLeader } from './testing/leader-term.ts';

const logger = createLogger('test');
logger.level = 'silent';
let etcd: EtcdServer;

beforeAll(async () => {
  etcd = await startEtcd();
});
afterAll(() => etcd.remove());

const leaderOf = (clusterId: string) => electLeader(etcd.endpoint, clusterId, logger);

describe('HaCheckpointStore', () => {
  it('hands out rising IDs that a later leader continues, and keeps the retained pointers', async () => {
    const client = openEtcd({ endpoints: [etcd.endpoint] });
    const keys = new HaKeys('cp');
    const first = await leaderOf('cp');
    const store = new HaCheckpointStore(client, keys, 'job-1', first.term, logger);
    expect(await store.recover()).toEqual({ pointers: [], lastId: 0, problems: [] });
    expect([await store.reserveId(), await store.reserveId(), await store.reserveId()]).toEqual([1, 2, 3]);
    await store.register({ checkpointId: 1, path: 'file:///c/chk-1', timestamp: 10 }, 1);
    await store.register({ checkpointId: 2, path: 'file:///c/chk-2', timestamp: 20 }, 1);
    await store.register({ checkpointId: 3, path: 'file:///c/chk-3', timestamp: 30 }, 2);
    await first.election.close();

    const second = await leaderOf('cp');
    expect(second.term.epoch).toBeGreaterThan(first.term.epoch);
    const recovered = new HaCheckpointStore(client, keys, 'job-1', second.term, logger);
    expect(await recovered.recover()).toEqual({
      pointers: [
        { checkpointId: 2, path: 'file:///c/chk-2', timestamp: 20, epoch: first.term.epoch },
        { checkpointId: 3, path: 'file:///c/chk-3', timestamp: 30, epoch: first.term.epoch },
      ],
      lastId: 3,
      problems: [],
    });
    expect(await recovered.reserveId()).toBe(4);
    await recovered.raiseTo(40);
    expect(await recovered.reserveId()).toBe(41);
    // The deposed leader can neither hand out IDs nor register checkpoints.
    await expect(store.reserveId()).rejects.toMatchObject({ code: 'LEADERSHIP_LOST' });
    await expect(store.register({ checkpointId: 5, path: 'x', timestamp: 0 }, 1)).rejects.toMatchObject({ code: 'LEADERSHIP_LOST' });
    await recovered.removeAll();
    expect((await recovered.recover()).pointers).toEqual([]);
    await second.election.close();
    client.close();
  });
});

describe('the cluster identity', () => {
  it('is claimed by the first storageDir; the same one joins, another is refused', async () => {
    const client = openEtcd({ endpoints: [etcd.endpoint] });
    const keys = new HaKeys('ident');
    await claimClusterId(client, keys, 'ident', '/data/a');
    await claimClusterId(client, keys, 'ident', '/data/a');
    await expect(claimClusterId(client, keys, 'ident', '/data/b')).rejects.toMatchObject({
      code: 'CLUSTER_ID_IN_USE',
      message: "high-availability.cluster-id 'ident' is already used on this etcd by a cluster with high-availability.storageDir /data/a, not /data/b: give each cluster its own cluster-id (or, if that cluster is gone for good, delete the etcd keys below /weir/ident/)",
    });
    client.close();
  });
});

describe('HaJobStore', () => {
  it('keeps a submission and its bundle in storageDir and the record in etcd', async () => {
    const storageDir = mkdtempSync(join(tmpdir(), 'weir-ha-store-'));
    const services = await EtcdHaServices.open({ endpoints: [etcd.endpoint], clusterId: 'jobs', storageDir, leaseTtlMs: 2_000, renewIntervalMs: 500 }, { logger, clock: systemClock, openStorage: (url) => openStorage(url, s3SettingsFromConfig(defaultConfig())) });
    const { term, election } = await leaderOf('jobs');
    const submission = { jobId: 'j1', jobName: 'sums', entryName: 'job.ts', args: ['a'], parallelism: 2, savepointPath: '', allowNonRestoredState: false, configuration: { 'execution.checkpointing.interval': '1s' }, bundleHash: 'abc', submittedAtMs: 5, owner: 'jwt:alice' };
    await services.jobs.add(term, submission, Buffer.from('module.exports = 1'));
    expect(await services.jobs.list()).toEqual({ records: [{ jobId: 'j1', jobName: 'sums', status: HaJobStatus.RUNNING, submittedAtMs: 5, endedAtMs: 0, failureCause: '', dirty: false }], problems: [] });
    const read = await services.jobs.submission('j1');
    // The owner comes back with it: its submitter still controls the job under the next leader.
    expect(read.submission).toEqual(submission);
    const { owner: _owner, ...older } = submission;
    expect(decodeSubmission(Buffer.from(JSON.stringify(older)))).toMatchObject({ owner: '' });
    expect(Buffer.from(read.bundle).toString()).toBe('module.exports = 1');
    await expect(services.jobs.submission('j2')).rejects.toMatchObject({ code: 'HA_RECORD_CORRUPT' });
    await election.close();
    services.close();
  });
});

describe('a leader whose etcd goes away', () => {
  it('gives its leadership up before its lease can have expired at etcd', async () => {
    const own = await startEtcd();
    try {
      const client = openEtcd({ endpoints: [own.endpoint] });
      const election = new LeaderElection(client, new HaKeys('gone'), { endpoints: [own.endpoint], clusterId: 'gone', storageDir: '', leaseTtlMs: 3_000, renewIntervalMs: 1_000 }, { address: 'jm:1' }, systemClock, logger);
      const contender = new RecordingContender();
      election.start(contender);
      await vi.waitFor(() => expect(contender.leading).toBeDefined(), { timeout: 5_000 });
      const term = contender.leading!;
      const killedAt = Date.now();
      await own.kill();
      await vi.waitFor(() => expect(contender.revoked).toHaveLength(1), { timeout: 5_000 });
      // The last renewal reached etcd at most one renew interval before the kill; the lease lives 3 s from then.
      expect(Date.now() - killedAt).toBeLessThan(3_000);
      expect(term.valid).toBe(false);
      await expect(term.commit('write', [])).rejects.toMatchObject({ code: 'LEADERSHIP_LOST' });
      await election.close();
      client.close();
    } finally {
      await own.remove();
    }
  });
});
