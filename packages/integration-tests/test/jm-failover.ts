import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffLines, expectedRunningSums, readCommittedLines } from '@weir/examples';
import { HaCluster, jobIdFrom, writeJobFile, type NetnsLab } from '../src/index.ts';
import { RUNNING_SUMS } from './checkpoint-jobs.ts';

export const FAILOVER_RECORDS = 12_000;
const RATE = 1_500;

/** What one run of the JobManager failover scenario saw. */
export interface FailoverRun {
  readonly ok: boolean;
  /** Why not, with the processes' logs. */
  readonly problem: string;
  /** From the SIGKILL to etcd naming the standby. */
  readonly electedMs: number;
  /** From the SIGKILL to the job RUNNING again on the new leader. */
  readonly runningAgainMs: number;
  readonly oldEpoch: number;
  readonly newEpoch: number;
  /** The job's attempt at the end: at least 1 after a takeover. */
  readonly attempt: number;
  readonly missing: number;
  readonly extra: number;
}

import { setTimeout as sleep } from 'node:timers/promises';

/**
 * etcd, two JobManagers and three TaskManagers (each on its own lab host when a lab is given);
 * the running-sums job (exactly-once, checkpoints every 500 ms, FileSink) runs, the leading
 * JobManager is SIGKILLed after its first completed checkpoint plus a random 0.5-2.5 s, the
 * standby takes over, and the job must finish with exactly the expected lines. With `etcdTls`
 * etcd takes only TLS clients with a certificate of the cluster's CA.
 */
export async function runJmFailover(lab: NetnsLab | undefined, options: { readonly etcdTls?: boolean } = {}): Promise<FailoverRun> {
  const cluster = await HaCluster.start({ jobManagers: 2, taskManagers: 3, slots: 1, lab, etcdTls: options.etcdTls === true });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'weir-jm-failover-'));
    const output = join(dir, 'out');
    const run = await cluster.weir(['run', '--detached', writeJobFile(RUNNING_SUMS), '--', output, String(FAILOVER_RECORDS), String(RATE), '500', 'EXACTLY_ONCE', join(dir, 'checkpoints')]);
    if (run.code !== 0) return failed(`weir run failed: ${run.stderr}`, cluster);
    const jobId = jobIdFrom(run.stdout);
    const leader = await cluster.leader();
    await leader.process.waitForOutput(/checkpoint \d+ completed/, 60_000);
    await sleep(500 + Math.random() * 2_000);
    const killedAt = Date.now();
    leader.process.kill('SIGKILL');
    await leader.process.exited;
    let next = await cluster.leader(60_000);
    while (next.epoch <= leader.epoch) {
      await sleep(50);
      next = await cluster.leader(60_000);
    }
    const electedMs = Date.now() - killedAt;
    await cluster.waitForStatus(jobId, ['RUNNING', 'FINISHED'], 60_000);
    const runningAgainMs = Date.now() - killedAt;
    const end = await cluster.waitForStatus(jobId, ['FINISHED', 'FAILED', 'CANCELED'], 120_000);
    const listed = (await cluster.list()).map((j) => `${j.jobId} ${j.status}`);
    const lines = readCommittedLines(output).sort();
    const { missing, extra } = diffLines(lines, expectedRunningSums(FAILOVER_RECORDS));
    const problems = [
      end.summary!.status !== 'FINISHED' ? `the job ended ${end.summary!.status}: ${end.failureCause}` : '',
      missing.length + extra.length > 0 ? `output not exact: ${missing.length} lines missing (${missing.slice(0, 3).join(', ')}), ${extra.length} extra (${extra.slice(0, 3).join(', ')})` : '',
      listed.join() !== `${jobId} FINISHED` ? `weir list shows ${listed.join(', ')}` : '',
      end.attempt < 1 ? `attempt ${end.attempt}: the new leader did not take the job over` : '',
    ].filter((p) => p !== '');
    return {
      ok: problems.length === 0,
      problem: problems.length === 0 ? '' : `${problems.join('; ')}\n${cluster.logs()}`,
      electedMs,
      runningAgainMs,
      oldEpoch: leader.epoch,
      newEpoch: next.epoch,
      attempt: end.attempt,
      missing: missing.length,
      extra: extra.length,
    };
  } catch (err) {
    return failed((err as Error).stack ?? String(err), cluster);
  } finally {
    await cluster.stop();
  }
}

function failed(problem: string, cluster: HaCluster): FailoverRun {
  return { ok: false, problem: `${problem}\n${cluster.logs()}`, electedMs: 0, runningAgainMs: 0, oldEpoch: 0, newEpoch: 0, attempt: 0, missing: 0, extra: 0 };
}
