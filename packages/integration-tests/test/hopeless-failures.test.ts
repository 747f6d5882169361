import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectedRunningSums, readCommittedLines } from '@weir/examples';
import { getJob, jobIdFrom, listCheckpoints, ProcessCluster, waitForCheckpoints, waitForStatus, WeirProcess, completedCount, writeJobFile } from '../src/index.ts';
import { RUNNING_SUMS } from './checkpoint-jobs.ts';
import { LEVEL_RUNNING_SUMS } from './level-jobs.ts';
import { REFUSED_CHECKPOINTED, UNDECODABLE_CHECKPOINTED } from './robustness-jobs.ts';

/*
 * Issue 12 item 3: failures that used to restart forever now end, loudly. With checkpointing
 * on, a failed job restarts with exponential delay and `weir run` prints every failover's
 * cause; failures no restart can fix (records that cannot travel, state that is corrupt in
 * every checkpoint it could restore) end FAILED at once, with their cause.
 */

/** Without the time stamps and with tm-N for the TaskManager, so lines compare exactly. */
function normalized(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC {2}/, '').replace(/TaskManager tm-\d+/g, 'TaskManager tm-N'));
}

/** Flips one byte in the middle of a file: same size, other content. */
function corrupt(file: string): void {
  const bytes = readFileSync(file);
  bytes[Math.floor(bytes.length / 2)] ^= 0xff;
  writeFileSync(file, bytes);
}

describe('hopeless failures end, loudly', () => {
  let cluster: ProcessCluster;
  let work: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'weir-hopeless-'));
    cluster = await ProcessCluster.start({
      taskManagers: 2,
      slots: 2,
      config: { 'state.checkpoints.num-retained': 2, 'state.backend.rocksdb.localdir': join(work, 'local-state') },
    });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('a record that cannot travel fails a checkpointed job at once (RECORD_REFUSED), without a restart', async () => {
    const run = await cluster.weir(['run', writeJobFile(REFUSED_CHECKPOINTED, 'refused.ts'), '--', join(work, 'refused-checkpoints')]);
    expect(run.code).toBe(1);
    const jobId = jobIdFrom(run.stdout);
    const cause =
      "Locate (1/1) failed: cannot send a record to 'Near' unchanged: field 'at' is an instance of class Point; it would arrive as a plain object, without its class and methods; " +
      "declare the stream's type so the class is registered and kept: .returns(Types.POJO(Point, { ...its fields })), or Types.CUSTOM({ name, version, serialize, deserialize }) to convert it yourself, or emit plain objects";
    expect(normalized(run.stdout).filter((line) => !line.endsWith(' is CREATED')).slice(1)).toEqual([
      `Job ${jobId} is RUNNING`,
      `Job ${jobId} is FAILING: attempt 0 failed: numbers -> Locate (1/1) failed on TaskManager tm-N: ${cause} [RECORD_REFUSED] (\`weir info ${jobId}\` has the rest)`,
      `Job ${jobId} is FAILED`,
    ]);
    expect(normalized(run.stderr)[0]).toBe(`error: job ${jobId} failed: numbers -> Locate (1/1) failed on TaskManager tm-N: ${cause}`);
    expect((await getJob(cluster.client, jobId)).attempt).toBe(0);
  });

  it('a record buffer that cannot be decoded fails the job at once (RECORD_DECODE_FAILED), naming the operator and the channel', async () => {
    const run = await cluster.weir(['run', writeJobFile(UNDECODABLE_CHECKPOINTED, 'undecodable.ts'), '--', join(work, 'undecodable-checkpoints')]);
    expect(run.code).toBe(1);
    const jobId = jobIdFrom(run.stdout);
    expect(normalized(run.stderr)[0]!.replace(/\(\d+ bytes\)/, '(N bytes)')).toBe(
      `error: job ${jobId} failed: Check -> Sink (1/1) failed on TaskManager tm-N: Check (1/1) cannot read its input from numbers -> Read subtask 0: a record buffer (N bytes) could not be decoded: sensor 42 wrote a unit this version cannot read`,
    );
    expect(normalized(run.stdout).filter((line) => line.includes('RESTARTING'))).toEqual([]);
    const details = await getJob(cluster.client, jobId);
    expect([details.summary!.status, details.attempt]).toEqual(['FAILED', 0]);
  });

  it('a restore whose checkpoint file is corrupt falls back to the previous retained checkpoint and loses nothing', async () => {
    const dir = join(work, 'fallback');
    const output = join(dir, 'out');
    const checkpoints = join(dir, 'checkpoints');
    const records = 6_000;
    const run = new WeirProcess('run', ['run', '-m', cluster.jobManagerAddress, writeJobFile(RUNNING_SUMS, 'sums.ts'), '--', output, String(records), '1000', '300', 'EXACTLY_ONCE', checkpoints], join(work, 'fallback-run.log'));
    await run.waitForOutput(/JobID [0-9a-f]{32}/);
    const jobId = jobIdFrom(run.output);
    await waitForCheckpoints(cluster.client, jobId, (c) => completedCount(c) >= 2);
    // Nothing completes while the TaskManagers stand still: the latest retained checkpoint stays the latest.
    const [live, other] = cluster.liveTaskManagers;
    for (const tm of [live!, other!]) tm.kill('SIGSTOP');
    await new Promise((r) => setTimeout(r, 500));
    const latest = (await listCheckpoints(cluster.client, jobId)).checkpoints.find((c) => c.status === 'COMPLETED')!.checkpointId;
    const chk = join(checkpoints, jobId, `chk-${latest}`);
    const victim = readdirSync(chk).filter((name) => name !== '_metadata').sort()[0]!;
    corrupt(join(chk, victim));
    await cluster.killTaskManager(live);
    other!.kill('SIGCONT');
    await cluster.startTaskManager();
    expect(await run.exited, run.output + cluster.logs()).toBe(0);
    // Every line, each right: nothing lost. The latest checkpoint had committed its output, so the records between
    // the two checkpoints are written a second time, as with Flink when it restores an older checkpoint.
    const lines = readCommittedLines(output).sort();
    const expected = expectedRunningSums(records);
    expect([...new Set(lines)]).toEqual(expected);
    const copies = new Map<string, number>();
    for (const line of lines) copies.set(line, (copies.get(line) ?? 0) + 1);
    expect(Math.max(...copies.values())).toBeLessThanOrEqual(2);
    expect(lines.length - expected.length).toBeLessThan(records / 2);
    expect(cluster.jobManager.output).toContain(`older than the latest completed one (${latest}): what sinks committed after it is written again`);
    expect(run.output).toMatch(new RegExp(`is FAILING: attempt 1 failed: .* from checkpoint ${latest}: file ${victim} in .* has other content than was written .*\\[CHECKPOINT_CORRUPT\\]`));
    expect(cluster.jobManager.output).toContain(`checkpoint ${latest} cannot be restored: a task found its state corrupt`);
    // `weir info` and the JobManager's log tell every failover too: attempt, cause and restart delay.
    const info = await cluster.weir(['info', jobId]);
    expect(info.code, info.stderr).toBe(0);
    const failovers = info.stdout.split('\n').filter((line) => /^ {2}attempt \d+ failed at /.test(line));
    expect(failovers).toHaveLength(2);
    expect(failovers[0]).toMatch(new RegExp(`^  attempt 1 failed at .* UTC, restarted after \\d+m?s: .* from checkpoint ${latest}: file ${victim} in .* has other content than was written .*\\[CHECKPOINT_CORRUPT\\]$`));
    expect(failovers[1]).toMatch(/^ {2}attempt 0 failed at .* UTC, restarted after \d+m?s: .*\[[A-Z_]+\]$/);
    expect(cluster.jobManager.output).toMatch(/restarting the job in \d+m?s as attempt 1 \(exponential-delay\) after: /);
    expect(cluster.jobManager.output).toMatch(/restarting the job in \d+m?s as attempt 2 \(exponential-delay\) after: .*has other content than was written/);
  });

  it('a checkpoint whose shared log segment is corrupt fails `weir run -s` at once, naming the file', async () => {
    const dir = join(work, 'corrupt-log');
    const checkpoints = join(dir, 'checkpoints');
    const job = writeJobFile(LEVEL_RUNNING_SUMS, 'level-sums.ts');
    const first = await cluster.weir(['run', '--detached', job, '--', join(dir, 'out-1'), '100000', '2000', '200', checkpoints, 'true']);
    const jobId = jobIdFrom(first.stdout);
    await waitForCheckpoints(cluster.client, jobId, (c) => completedCount(c) >= 2);
    expect((await cluster.weir(['cancel', jobId])).code).toBe(0);
    await waitForStatus(cluster.client, jobId, ['CANCELED']);
    const chkName = readdirSync(join(checkpoints, jobId)).filter((n) => n.startsWith('chk-') && existsSync(join(checkpoints, jobId, n, '_metadata'))).sort().at(-1)!;
    const metadata = readFileSync(join(checkpoints, jobId, chkName, '_metadata'), 'utf8');
    // Incremental checkpoints of a small state: the writes are in the log, uploaded as shared segments.
    const shared = [...new Set(metadata.match(/shared\/[^"]+\.log/g) ?? [])].sort().find((path) => statSync(join(checkpoints, jobId, path)).size > 0)!;
    corrupt(join(checkpoints, jobId, shared));

    const restored = await cluster.weir(['run', '-s', join(checkpoints, jobId, chkName), job, '--', join(dir, 'out-2'), '100000', '2000', '200', checkpoints, 'true']);
    expect(restored.code).toBe(1);
    const restoredId = jobIdFrom(restored.stdout);
    expect(normalized(restored.stderr)[0]).toMatch(
      new RegExp(
        `^error: job ${restoredId} failed: .* failed on TaskManager tm-N: .*cannot restore keyed state of .* from checkpoint ${chkName.slice(4)}: its shared file ${shared} in file://${checkpoints}/${jobId} has other content than was written \\(its SHA-256 differs from the one the checkpoint recorded\\); the checkpoint is corrupt, restore from an earlier one$`,
      ),
    );
    expect(normalized(restored.stdout).filter((line) => line.includes('RESTARTING'))).toEqual([]);
    expect((await getJob(cluster.client, restoredId)).attempt).toBe(0);
    // Both LevelDB jobs ended (canceled, failed): each running TaskManager keeps only its own empty directory and
    // the .owner file beside it, no DB and no job directory.
    const local = join(work, 'local-state');
    await vi.waitFor(
      () => {
        const entries = readdirSync(local);
        expect(entries.filter((name) => !/^weir-.+\.owner$/.test(name) && !/^weir-[^.]+$/.test(name))).toEqual([]);
        expect(entries.filter((name) => !name.endsWith('.owner')).flatMap((name) => readdirSync(join(local, name)))).toEqual([]);
      },
      { timeout: 10_000 },
    );
  });

  it('a full checkpoint disk backs the job off, prints ENOSPC for every failover, and the job finishes exactly once there is room', async (context) => {
    const disk = join(work, 'small-disk');
    mkdirSync(disk);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', disk], { stdio: 'pipe' });
    } catch (err) {
      context.skip(`cannot mount a tmpfs for a full disk (${(err as Error).message.split('\n')[0]}); run as root to test ENOSPC`);
    }
    try {
      const filler = join(disk, 'filler');
      try {
        writeFileSync(filler, Buffer.alloc(2 * 1024 ** 2));
      } catch {
        // ENOSPC: the disk is full, which is the point.
      }
      const output = join(work, 'full-disk-out');
      const records = 3_000;
      const run = new WeirProcess('run', ['run', '-m', cluster.jobManagerAddress, writeJobFile(RUNNING_SUMS, 'sums.ts'), '--', output, String(records), '1000', '200', 'EXACTLY_ONCE', join(disk, 'checkpoints')], join(work, 'full-disk-run.log'));
      await run.waitForOutput(/attempt 2 starts in/, 60_000);
      rmSync(filler);
      expect(await run.exited, run.output).toBe(0);
      expect(readCommittedLines(output).sort()).toEqual(expectedRunningSums(records));
      const failovers = normalized(run.output).filter((line) => line.includes('FAILING') || line.includes('RESTARTING'));
      expect(failovers[0]).toMatch(/is FAILING: attempt 0 failed: .*ENOSPC: no space left on device.* \[CHECKPOINT_FAILURE_THRESHOLD\]$/);
      expect(failovers[1]).toMatch(/is RESTARTING: attempt 1 starts in (9\d\d|1\d{3})ms \(restart strategy exponential-delay\)$/);
      expect(failovers[3]).toMatch(/is RESTARTING: attempt 2 starts in 1[3-6]\d\dms \(restart strategy exponential-delay\)$/);
    } finally {
      execFileSync('umount', [disk]);
    }
  });
});
