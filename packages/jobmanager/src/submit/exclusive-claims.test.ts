import { describe, expect, it } from 'vitest';
import { ExclusiveClaims, type ClaimingJob } from './exclusive-claims.ts';

const prefix = (name: string, scope = 'localhost:9092') => ({ kind: 'kafka.transactional-id-prefix', scope, name, description: `Kafka transactional.id prefix '${name}' on ${scope}` });

describe('ExclusiveClaims', () => {
  it('refuses a claim a live job holds, naming that job and what to do', () => {
    const live: ClaimingJob[] = [{ jobId: 'j1', jobName: 'first', resources: [prefix('orders')] }];
    const claims = new ExclusiveClaims(() => live);
    expect(() => claims.reserve({ jobId: 'j2', jobName: 'second', resources: [prefix('orders')] })).toThrow(
      /job 'second' uses Kafka transactional.id prefix 'orders' on localhost:9092, which job 'first' \(j1\) uses while it runs.*setTransactionalIdPrefix/,
    );
  });

  it('lets the same name through in another scope, and jobs without claims always', () => {
    const live: ClaimingJob[] = [{ jobId: 'j1', jobName: 'first', resources: [prefix('orders')] }];
    const claims = new ExclusiveClaims(() => live);
    expect(() => claims.reserve({ jobId: 'j2', jobName: 'second', resources: [prefix('orders', 'other:9092')] })).not.toThrow();
    expect(() => claims.reserve({ jobId: 'j3', jobName: 'third', resources: [] })).not.toThrow();
  });

  it('holds a submission\'s claims until it is released, so two submissions at once cannot both pass', () => {
    const claims = new ExclusiveClaims(() => []);
    const first = claims.reserve({ jobId: 'j1', jobName: 'first', resources: [prefix('orders')] });
    expect(() => claims.reserve({ jobId: 'j2', jobName: 'second', resources: [prefix('orders')] })).toThrow(/RESOURCE_IN_USE|which job 'first'/);
    first.release();
    expect(() => claims.reserve({ jobId: 'j2', jobName: 'second', resources: [prefix('orders')] })).not.toThrow();
  });
});
