import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@weir/common/testing';
import { LocalStorage, type Storage } from '@weir/storage';
import { openEtcd } from '../etcd.ts';
import { HaKeys } from '../keys.ts';
import { startEtcd, type EtcdServer } from '../testing/etcd-server.ts';
import { leaderOf as electLeader } from '../testing/leader-term.ts';
import { decodeJobRecord, HaJobStatus, type JobSubmission } from './job-records.ts';
import { HaJobStore } from './job-store.ts';

const logger = silentLogger();
let etcd: EtcdServer;
beforeAll(async () => {
  etcd = await startEtcd();
});
afterAll(() => etcd.remove());

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

function submission(jobId: string, bundleHash: string): JobSubmission {
  return { jobId, jobName: jobId, entryName: 'job.ts', args: [], parallelism: 1, savepointPath: '', allowNonRestoredState: false, configuration: {}, bundleHash, submittedAtMs: 1, owner: '' };
}

const leaderOf = (clusterId: string) => electLeader(etcd.endpoint, clusterId, logger);

/** storageDir whose listing of submissions takes `listDelayMs`: a removal's view of the references is then older than a submission written meanwhile. */
function slowListing(listDelayMs: number): Storage {
  const storage = new LocalStorage(mkdtempSync(join(tmpdir(), 'weir-ha-jobs-')));
  return new Proxy(storage, {
    get(target, name, receiver) {
      if (name === 'list') return async (prefix: string) => {
        const listed = await target.list(prefix);
        if (prefix === 'jobs') await new Promise((r) => setTimeout(r, listDelayMs));
        return listed;
      };
      const value = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('HaJobStore clean-up', () => {
  it("removes an ended job's submission and the bundles no other job refers to; again without harm", async () => {
    const { term, election } = await leaderOf('cleanup-1');
    const storage = slowListing(0);
    const store = new HaJobStore(openEtcd({ endpoints: [etcd.endpoint] }), new HaKeys('cleanup-1'), storage);
    await store.add(term, submission('j1', HASH_A), Buffer.from('a'));
    await store.add(term, submission('j2', HASH_A), Buffer.from('a'));
    await store.add(term, submission('j3', HASH_B), Buffer.from('b'));
    expect(await store.removeJobData(term, 'j1')).toEqual([]);
    expect(await storage.list('')).toEqual([`bundles/${HASH_A}.js`, `bundles/${HASH_B}.js`, 'jobs/j2/submission.json', 'jobs/j3/submission.json']);
    expect(await store.removeJobData(term, 'j3')).toEqual([HASH_B]);
    expect(await store.removeJobData(term, 'j3')).toEqual([]);
    expect(await storage.list('')).toEqual([`bundles/${HASH_A}.js`, 'jobs/j2/submission.json']);
    expect(Buffer.from((await store.submission('j2')).bundle).toString()).toBe('a');
    await election.close();
  });

  it('never loses the bundle of a submission made while the last job referring to it is cleaned up', async () => {
    const { term, election } = await leaderOf('cleanup-2');
    const storage = slowListing(200);
    const store = new HaJobStore(openEtcd({ endpoints: [etcd.endpoint] }), new HaKeys('cleanup-2'), storage);
    await store.add(term, submission('old', HASH_A), Buffer.from('a'));
    // The removal lists the submissions (only 'old', which it removed), and while it looks at them the new job is submitted with the same bundle.
    const removal = store.removeJobData(term, 'old');
    await new Promise((r) => setTimeout(r, 50));
    await Promise.all([removal, store.add(term, submission('new', HASH_A), Buffer.from('a'))]);
    expect(Buffer.from((await store.submission('new')).bundle).toString()).toBe('a');
    await election.close();
  });

  it('removes nothing once its term ended', async () => {
    const { term, election } = await leaderOf('cleanup-3');
    const storage = slowListing(0);
    const store = new HaJobStore(openEtcd({ endpoints: [etcd.endpoint] }), new HaKeys('cleanup-3'), storage);
    await store.add(term, submission('j1', HASH_A), Buffer.from('a'));
    await election.close();
    await expect(store.removeJobData(term, 'j1')).rejects.toMatchObject({ code: 'LEADERSHIP_LOST' });
    expect(await storage.list('')).toEqual([`bundles/${HASH_A}.js`, 'jobs/j1/submission.json']);
  });
});

describe('job records', () => {
  it('are dirty when an older Weir wrote them terminal, without the flag', () => {
    expect(decodeJobRecord(JSON.stringify({ jobId: 'j', status: HaJobStatus.FINISHED }))).toMatchObject({ dirty: true });
    expect(decodeJobRecord(JSON.stringify({ jobId: 'j', status: HaJobStatus.RUNNING }))).toMatchObject({ dirty: false });
    expect(decodeJobRecord(JSON.stringify({ jobId: 'j', status: HaJobStatus.FAILED, dirty: false }))).toMatchObject({ dirty: false });
  });
});
