import { WeirError } from '@weir/common';
import { diffLines, exampleJobs, expectedAlerts, readCommittedLines } from '@weir/examples';
import { bundleJob } from '../bundle.ts';
import { JobClient } from '../client/job-client.ts';
import { deadline } from '../cluster/deadline.ts';
import type { LocalCluster } from '../cluster/local-cluster.ts';
import { followJob } from '../commands/follow-job.ts';
import type { CliContext } from '../context.ts';
import { CliErrorCode } from '../errors.ts';

const TRANSACTIONS = 6_000;
const TRANSACTIONS_PER_SECOND = 3_000;
const JOB_TIMEOUT_MS = 120_000;

/**
 * The event-time part of `pnpm demo`: Flink's fraud-detection walkthrough (keyed state and a
 * processing-time timer per account) over generated transactions; its committed alerts must be
 * exactly those the walkthrough's rule gives for them.
 */
export async function fraudDemo(cluster: LocalCluster, output: string, context: CliContext): Promise<void> {
  const bundle = await bundleJob(exampleJobs.fraudDetection);
  const client = JobClient.connect(cluster.jobManagerAddress);
  const timeout = deadline(
    context.clock,
    JOB_TIMEOUT_MS,
    () => new WeirError(CliErrorCode.DEMO_FAILED, `the fraud-detection job did not finish within ${JOB_TIMEOUT_MS / 1000} s`),
  );
  try {
    const args = [String(TRANSACTIONS), String(TRANSACTIONS_PER_SECOND), output];
    const { jobId } = await client.submit({ bundle: Buffer.from(bundle.code), entryName: bundle.entryName, args, parallelism: 2 });
    context.out(`Job has been submitted with JobID ${jobId}: fraud detection over ${TRANSACTIONS} transactions at ${TRANSACTIONS_PER_SECOND}/s`);
    const lost = cluster.jobManagerLost.then((reason) => Promise.reject(new WeirError(CliErrorCode.CLUSTER_PROCESS_FAILED, reason)));
    await Promise.race([followJob(client, jobId, context), lost, timeout.expired]);
  } finally {
    timeout.cancel();
    client.close();
  }
  const expected = expectedAlerts(TRANSACTIONS);
  const { missing, extra } = diffLines(readCommittedLines(output).sort(), expected);
  if (missing.length > 0 || extra.length > 0) {
    const sample = [...missing.slice(0, 5).map((l) => `  missing: ${l}`), ...extra.slice(0, 5).map((l) => `  extra:   ${l}`)];
    throw new WeirError(CliErrorCode.DEMO_FAILED, `the alerts in ${output} differ from the walkthrough's rule: ${missing.length} missing, ${extra.length} extra\n${sample.join('\n')}`);
  }
  context.out(`fraud detection: ${TRANSACTIONS} transactions, ${expected.length} alerts, exactly the walkthrough's (a small transaction, then a large one)`);
}
