import { describe, expect, it } from 'vitest';
import { parseRoute } from './router.ts';

describe('parseRoute', () => {
  it('maps hashes to pages, defaulting to the overview and the job graph tab', () => {
    expect(parseRoute('')).toEqual({ page: 'overview' });
    expect(parseRoute('#/taskmanagers')).toEqual({ page: 'taskmanagers' });
    expect(parseRoute('#/jobs/abc')).toEqual({ page: 'job', jobId: 'abc', tab: 'graph' });
    expect(parseRoute('#/jobs/abc/checkpoints')).toEqual({ page: 'job', jobId: 'abc', tab: 'checkpoints' });
    expect(parseRoute('#/jobs/abc/nonsense')).toEqual({ page: 'job', jobId: 'abc', tab: 'graph' });
  });
});
