import { WeirError } from '@weir/common';
import { diffLines, expectedRunningSums, exampleJobs, readCommittedLines } from '@weir/examples';
import { bundleJob } from '../bundle.ts';
import { JobClient } from '../client/job-client.ts';
import { deadline } from '../cluster/deadline.ts';
import type { LocalCluster } from '../cluster/local-cluster.ts';
import { followJob } from '../commands/follow-job.ts';
import type { CliContext } from '../context.ts';
import { CliErrorCode } from '../errors.ts';

const EVENTS = 20_000;
const EVENTS_PER_SECOND = 2_000;
const KILL_AFTER_MS = 4_000;
const VICTIM = 'taskmanager-1';
const JOB_TIMEOUT_MS = 180_000;

/**
 * The recovery half of `pnpm demo`: the running-sums example (checkpoints every 500 ms,
 * exactly-once FileSink) runs for about ten seconds; four seconds in, a TaskManager is
 * SIGKILLed (the local cluster restarts it, as compose's restart policy would); the job fails
 * over, restores the latest checkpoint and finishes; the committed output must then be
 * exactly the lines a run without failure gives: none missing, none twice.
 */
export async function recoveryDemo(cluster: LocalCluster, output: string, context: CliContext): Promise<void> {
  const bundle = await bundleJob(exampleJobs.runningSums);
  const client = JobClient.connect(cluster.jobManagerAddress);
  const timeout = deadline(
    context.clock,
    JOB_TIMEOUT_MS,
    () => new WeirError(CliErrorCode.DEMO_FAILED, `the running-sums job did not finish within ${JOB_TIMEOUT_MS / 1000} s`),
  );
  let killer: NodeJS.Timeout | undefined;
  try {
    const args = [String(EVENTS), String(EVENTS_PER_SECOND), output];
    const { jobId } = await client.submit({ bundle: Buffer.from(bundle.code), entryName: bundle.entryName, args, parallelism: 2 });
    context.out(`Job has been submitted with JobID ${jobId}: running sums of ${EVENTS} events at ${EVENTS_PER_SECOND}/s, checkpoints every 500 ms`);
    killer = setTimeout(() => {
      const pid = cluster.supervisor.pid(VICTIM);
      if (pid === undefined) return;
      context.out(`Killing ${VICTIM} (pid ${pid}) with SIGKILL; the cluster restarts it in 2 s`);
      process.kill(pid, 'SIGKILL');
    }, KILL_AFTER_MS);
    const lost = cluster.jobManagerLost.then((reason) => Promise.reject(new WeirError(CliErrorCode.CLUSTER_PROCESS_FAILED, reason)));
    await Promise.race([followJob(client, jobId, context), lost, timeout.expired]);
    const history = await client.checkpoints(jobId);
    verify(output, history.restoredFrom, history.completed, context);
  } finally {
    clearTimeout(killer);
    timeout.cancel();
    client.close();
  }
}

function verify(output: string, restoredFrom: number, completed: number, context: CliContext): void {
  const { missing, extra } = diffLines(readCommittedLines(output).sort(), expectedRunningSums(EVENTS));
  if (missing.length > 0 || extra.length > 0) {
    const sample = [...missing.slice(0, 5).map((l) => `  missing: ${l}`), ...extra.slice(0, 5).map((l) => `  extra:   ${l}`)];
    throw new WeirError(
      CliErrorCode.DEMO_FAILED,
      `the committed running sums in ${output} are not exactly-once: ${missing.length} lines missing, ${extra.length} extra\n${sample.join('\n')}`,
    );
  }
  if (restoredFrom === 0) throw new WeirError(CliErrorCode.DEMO_FAILED, `the job never restored a checkpoint: was ${VICTIM} killed while it ran?`);
  context.out(
    `running sums: ${EVENTS} events, ${completed} checkpoints, recovered from checkpoint ${restoredFrom} after the kill; ` +
      'committed output matches expected exactly-once (no line missing, none twice)',
  );
}
