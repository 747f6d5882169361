import { describe, expect, it } from 'vitest';
import type { StreamExecutionEnvironment } from '@weir/api';
import { MiniCluster } from '@weir/testing';
import { CollectSink } from '@weir/testing/job';
import { adults, flintstonesStream, Person } from '../../jobs/intro/flintstones.ts';

describe('Intro to the DataStream API: the Flintstones example', () => {
  it('keeps the adults, Fred and Wilma, and prints them as Flink does', async () => {
    const cluster = new MiniCluster({ mode: 'in-process' });
    await cluster.start();
    try {
      // What print() writes: each record's toString, in the job, where records are Person instances.
      const job = (env: StreamExecutionEnvironment): void =>
        void adults(flintstonesStream(env))
          .map((p) => (p instanceof Person ? String(p) : `not a Person: ${JSON.stringify(p)}`))
          .sinkTo(new CollectSink<string>('adults'));
      const execution = await cluster.execute(job, { parallelism: 1 });
      await execution.result();
      expect(execution.collected<string>('adults')).toEqual(['Fred: age 35', 'Wilma: age 35']);
    } finally {
      await cluster.close();
    }
  });

  it('runs as a job module (its default export, printing) in an in-process MiniCluster', async () => {
    const cluster = new MiniCluster({ mode: 'in-process' });
    await cluster.start();
    try {
      const execution = await cluster.execute(new URL('../../jobs/intro/flintstones.ts', import.meta.url));
      await execution.result();
      expect(execution.statuses.at(-1)).toBe('FINISHED');
    } finally {
      await cluster.close();
    }
  });
});
