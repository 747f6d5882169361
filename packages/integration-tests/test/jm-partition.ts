import { readdirSync, statSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffLines, expectedRunningSums, readCommittedLines } from '@weir/examples';
import { HaCluster, jobIdFrom, logLines, writeJobFile, type NetnsLab } from '../src/index.ts';
import { RUNNING_SUMS } from './checkpoint-jobs.ts';

const RECORDS = 15_000;
const RATE = 1_500;
import { setTimeout as sleep } from 'node:timers/promises';

export interface PartitionRun {
  readonly problems: string[];
  readonly logs: string;
  /** From the cut to the old leader giving up its leadership, and to the standby's election. */
  readonly steppedDownMs: number;
  readonly electedMs: number;
}

/**
 * The leader's host is cut off from etcd and the standby with iptables (the TaskManagers can
 * still reach it, so only fencing keeps them from obeying it). The standby must take over
 * after the lease TTL; the old leader, still running, must give up before that, write no
 * `_metadata` once it did and have no TaskManager register with it; after healing the
 * output must be exact.
 */
export async function runJmPartition(lab: NetnsLab): Promise<PartitionRun> {
  const cluster = await HaCluster.start({ jobManagers: 2, taskManagers: 3, slots: 1, lab });
  const problems: string[] = [];
  let steppedDownMs = 0;
  let electedMs = 0;
  try {
    const dir = mkdtempSync(join(tmpdir(), 'weir-jm-partition-'));
    const output = join(dir, 'out');
    const checkpoints = join(dir, 'checkpoints');
    const run = await cluster.weir(['run', '--detached', writeJobFile(RUNNING_SUMS), '--', output, String(RECORDS), String(RATE), '500', 'EXACTLY_ONCE', checkpoints]);
    if (run.code !== 0) throw new Error(`weir run failed: ${run.stderr}`);
    const jobId = jobIdFrom(run.stdout);
    const old = await cluster.leader();
    await old.process.waitForOutput(/checkpoint \d+ completed/, 60_000);
    await sleep(1_000);
    const oldHost = old.process.name;
    const standby = oldHost === 'jm1' ? 'jm2' : 'jm1';
    const cutAt = Date.now();
    lab.cut(oldHost, ['etcd', standby]);
    let next = await cluster.leader(60_000);
    while (next.epoch <= old.epoch) {
      await sleep(50);
      next = await cluster.leader(60_000);
    }
    const electedAt = Date.now();
    electedMs = electedAt - cutAt;
    await cluster.waitForStatus(jobId, ['RUNNING', 'FINISHED'], 60_000);
    await sleep(1_500);
    lab.heal(oldHost);
    const end = await cluster.waitForStatus(jobId, ['FINISHED', 'FAILED', 'CANCELED'], 120_000);
    if (!old.process.running) problems.push('the old leader exited; it must live on as a standby');

    const oldLog = logLines(old.process.output);
    const ended = oldLog.find((l) => l.at >= cutAt && l.msg.startsWith(`leadership with epoch ${old.epoch} ended`));
    if (ended === undefined) {
      problems.push(`the old leader never logged that its leadership with epoch ${old.epoch} ended`);
    } else {
      steppedDownMs = ended.at - cutAt;
      if (ended.at >= electedAt) problems.push(`the old leader gave up ${ended.at - electedAt} ms after the standby was elected`);
      const actedAfter = oldLog.filter((l) => l.at > ended.at && /^(triggering checkpoint|checkpoint \d+ completed|job deployed|TaskManager registered)/.test(l.msg));
      if (actedAfter.length > 0) problems.push(`the old leader acted after giving up: ${actedAfter.map((l) => l.msg).join('; ')}`);
      const newTriggered = new Set(logLines(next.process.output).filter((l) => l.msg.startsWith('triggering checkpoint')).map((l) => Number(l.fields.checkpointId)));
      for (const { id, mtime } of metadataFiles(join(checkpoints, jobId))) {
        if (mtime > ended.at && !newTriggered.has(id)) problems.push(`chk-${id}/_metadata was written at ${new Date(mtime).toISOString()}, after the old leader gave up, and the new leader never triggered ${id}`);
      }
    }
    for (const tm of cluster.taskManagers) {
      const registrations = logLines(tm.output).filter((l) => l.at > electedAt && l.msg === 'registered with the JobManager');
      const wrong = registrations.filter((l) => l.fields.jobManager !== next.address);
      if (wrong.length > 0) problems.push(`${tm.name} registered with ${wrong.map((l) => String(l.fields.jobManager)).join(', ')} after ${next.address} was elected`);
    }
    if (end.summary!.status !== 'FINISHED') problems.push(`the job ended ${end.summary!.status}: ${end.failureCause}`);
    const { missing, extra } = diffLines(readCommittedLines(output).sort(), expectedRunningSums(RECORDS));
    if (missing.length + extra.length > 0) problems.push(`output not exact: ${missing.length} missing, ${extra.length} extra`);
    return { problems, logs: problems.length > 0 ? cluster.logs() : '', steppedDownMs, electedMs };
  } finally {
    await cluster.stop();
  }
}

function metadataFiles(jobDir: string): { id: number; mtime: number }[] {
  let entries: string[];
  try {
    entries = readdirSync(jobDir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const match = /^chk-(\d+)$/.exec(name);
    if (match === null) return [];
    try {
      return [{ id: Number(match[1]), mtime: statSync(join(jobDir, name, '_metadata')).mtimeMs }];
    } catch {
      return [];
    }
  });
}
