import { describe, expect, it } from 'vitest';
import type { FetchedResults } from '../client/job-client.ts';
import { runQuery, type QueryCluster } from './run-query.ts';

function cluster(batches: FetchedResults[]): QueryCluster & { cancelled: string[] } {
  const cancelled: string[] = [];
  return {
    cancelled,
    fetch: async () => batches.shift() ?? new Promise<FetchedResults>(() => {}),
    cancel: async (jobId) => (cancelled.push(jobId), 'CANCELED'),
  };
}

const running = (rows: unknown[]): FetchedResults => ({ rows, jobStatus: 'RUNNING', endOfResults: false });

describe('runQuery', () => {
  it('redraws the live table in place as updates come, and Ctrl-C cancels the job', async () => {
    const writes: string[] = [];
    const fake = cluster([
      running([{ kind: '+I', fields: ['a', '1'] }]),
      running([{ kind: '-U', fields: ['a', '1'] }, { kind: '+U', fields: ['a', '2'] }]),
    ]);
    const interrupt = new AbortController();
    const done = runQuery('j1', ['k', 'cnt'], { mode: 'table', maxTableRows: 10 }, fake, { write: (t) => void writes.push(t), live: true, rows: 40 }, interrupt.signal);
    await new Promise((resolve) => setTimeout(resolve, 20));
    interrupt.abort();
    expect(await done).toBe('CANCELED');
    expect(fake.cancelled).toEqual(['j1']);
    expect(writes[0]).toContain('| a |   1 |');
    // The second draw moves up over the first (6 lines: the box of one row and the status line) and replaces the count.
    expect(writes[1]!.startsWith('\x1b[6F\x1b[J')).toBe(true);
    expect(writes[1]).toContain('| a |   2 |');
    expect(writes.at(-1)).toMatch(/Rows: 1 {2}Job j1: CANCELED {2}\(ended\)/);
  });

  it('prints every change with its kind in changelog mode and ends with the job', async () => {
    const writes: string[] = [];
    const fake = cluster([running([{ kind: '+I', fields: ['a', '1'] }, { kind: '-U', fields: ['a', '1'] }]), { rows: [], jobStatus: 'FINISHED', endOfResults: true }]);
    const status = await runQuery('j2', ['k', 'cnt'], { mode: 'changelog', maxTableRows: 10 }, fake, { write: (t) => void writes.push(t), live: false }, new AbortController().signal);
    expect(status).toBe('FINISHED');
    expect(writes.join('')).toBe('op |  k | cnt\n+I |  a |   1\n-U |  a |   1\n');
  });
});
