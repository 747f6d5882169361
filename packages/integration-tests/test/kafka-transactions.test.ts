import { describe, expect, it } from 'vitest';
import { javaAvailable, produceValues, readCommittedWithJavaClient } from '@weir/kafka-broker';
import { exampleJobs, kafkaInputRecord } from '@weir/examples';
import { runWeir, until, waitForStatus } from '../src/index.ts';
import { kafkaSuite } from './kafka-suite.ts';

/**
 * Issue 24's Kafka operations on a process cluster and a real broker: a job SIGKILLed and never
 * restarted leaves its EXACTLY_ONCE sink's transaction open, and every read_committed consumer
 * of the partition stops at it. `weir kafka transactions` lists it with its job and checkpoint,
 * and `--abort` ends it: Kafka's own Java consumer then reads what came after. On the way, a
 * second job with the running one's transactional id prefix is refused at submission.
 */
describe.skipIf(!javaAvailable())('weir kafka transactions and exclusive transactional id prefixes', () => {
  const suite = kafkaSuite();

  it('lists a killed job\'s lingering transaction with its job and checkpoint; aborting it lets read_committed read on', async () => {
    const c = await suite.kafka.cluster();
    await suite.broker.createTopic('lt-in', 1);
    await suite.broker.createTopic('lt-out', 1);
    await produceValues(suite.broker.bootstrapServers, 'lt-in', Array.from({ length: 50 }, (_, i) => kafkaInputRecord(i, 50)));
    // A checkpoint every 100 s (under the example's 120 s transaction timeout): the records stay in the transaction opened for checkpoint 1.
    const jobId = await suite.kafka.submit(c, ['lt-in', 'lt-out', 'lingering', 'EXACTLY_ONCE', '100000']);
    await waitForStatus(c.client, jobId, ['RUNNING']);
    const transactions = (...extra: string[]) => runWeir(['kafka', 'transactions', suite.broker.bootstrapServers, '-m', c.jobManagerAddress, ...extra]);
    const listed = await until(transactions, (r) => r.stdout.includes('lingering-0-1'), 60_000, 'the open transaction listed');

    const second = await c.weir(['run', '--detached', ...exampleArgs(suite.broker.bootstrapServers, 'lt-in', 'lt-other', 'lingering')]);
    expect(second.code).not.toBe(0);
    expect(second.stderr).toMatch(/RESOURCE_IN_USE|uses Kafka transactional.id prefix 'lingering' on .* which job 'kafkaRunningSums' \(/);

    for (const tm of c.liveTaskManagers) await c.killTaskManager(tm);
    await c.weir(['cancel', jobId]);
    await waitForStatus(c.client, jobId, ['CANCELED']);
    // Written after the open transaction: a read_committed consumer cannot see it until that transaction ends.
    await produceValues(suite.broker.bootstrapServers, 'lt-out', [{ value: 'after the lingering transaction', partition: 0 }]);
    expect(await readCommittedWithJavaClient(suite.broker.bootstrapServers, 'lt-out')).toEqual([]);

    const afterKill = await transactions('--prefix', 'lingering');
    const row = afterKill.stdout.split('\n').find((line) => line.startsWith('lingering-0-1'));
    expect(row, `${listed.stdout}\n${afterKill.stdout}\n${afterKill.stderr}`).toMatch(/lingering-0-1\s+lingering\s+0\s+after 0\s+\d+\s+\d+\s+Ongoing\s+.*kafkaRunningSums [0-9a-f]{32} CANCELED\s+lt-out\[0\]/);
    expect(row).toContain(jobId);

    const aborted = await transactions('--abort', 'lingering-0-1');
    expect(aborted.code, aborted.stderr).toBe(0);
    expect(aborted.stdout).toMatch(/^aborted lingering-0-1 \(producer \d+, epoch \d+, open for .*\); read_committed consumers of lt-out\[0\] read on past it/);
    expect(await readCommittedWithJavaClient(suite.broker.bootstrapServers, 'lt-out')).toEqual(['after the lingering transaction']);
    expect((await transactions('--prefix', 'lingering')).stdout).toContain("no open transactions with prefix 'lingering'");

    const again = await transactions('--abort', 'lingering-0-1');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/transactional id 'lingering-0-1' has no open transaction \(its state is \w+\)/);
  });

  it("a sink's transaction.timeout.ms above the brokers' transaction.max.timeout.ms fails the job at once, saying both and what to change", async () => {
    const c = await suite.kafka.cluster();
    await suite.broker.createTopic('tt-in', 1);
    await suite.broker.createTopic('tt-out', 1);
    // 1000 s: above the broker's default transaction.max.timeout.ms of 15 minutes.
    const jobId = await suite.kafka.submit(c, ['tt-in', 'tt-out', 'too-long', 'EXACTLY_ONCE', '1000', '1000', '1000000']);
    const failed = await waitForStatus(c.client, jobId, ['FAILED']);
    expect(failed.failureCause).toMatch(
      /Sink \(1\/1\) failed: the KafkaSink.s transaction.timeout.ms \(1000000 ms\) is above the brokers' transaction.max.timeout.ms \(900000 ms\).*lower it with setProperty/,
    );
    // Refused alike on every attempt: no restart.
    expect(failed.failovers.map((f) => [f.code, f.restarted])).toEqual([['KAFKA_TRANSACTION_TIMEOUT_TOO_LONG', false]]);
  });
});

function exampleArgs(servers: string, input: string, output: string, prefix: string): string[] {
  return [exampleJobs.kafkaRunningSums, '--', servers, input, output, prefix, 'EXACTLY_ONCE', '100000'];
}
