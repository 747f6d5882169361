import { afterEach, describe, expect, it } from 'vitest';
import { expectedRunningSums, readCommittedLines } from '@weir/examples';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startS3rver } from '@weir/storage/testing';
import { completedCount, jobIdFrom, listCheckpoints, ProcessCluster, until, waitForCheckpoints, waitForStatus, writeJobFile } from '../src/index.ts';
import { killTaskManagersAtRandom } from './chaos.ts';
import { checkRestoredSuffix, LEVEL_RUNNING_SUMS } from './level-jobs.ts';

const RECORDS = 12_000;
const RATE = 2_000;

interface LevelFile {
  readonly name: string;
  readonly location: 'private' | 'shared';
  readonly path: string;
}

/** Every shared file the `_metadata` of a checkpoint directory refers to. */
function sharedPathsOf(checkpointDir: string): string[] {
  const metadata = JSON.parse(readFileSync(join(checkpointDir, '_metadata'), 'utf8')) as {
    operators: { subtasks: ({ keyed?: { backend: string; files?: LevelFile[] }[] } | null)[] }[];
  };
  const paths: string[] = [];
  for (const operator of metadata.operators) {
    for (const subtask of operator.subtasks) {
      for (const handle of subtask?.keyed ?? []) for (const file of handle.files ?? []) if (file.location === 'shared') paths.push(file.path);
    }
  }
  return paths;
}

describe('the LevelDB state backend in a cluster', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function runWithKills(config: Record<string, string | number>, args: string[]): Promise<{ output: string; chaos: string[]; cluster: ProcessCluster; jobId: string }> {
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config });
    cleanups.push(() => cluster.stop());
    const output = args[0]!;
    const run = await cluster.weir(['run', '--detached', writeJobFile(LEVEL_RUNNING_SUMS), '--', ...args]);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForStatus(cluster.client, jobId, ['RUNNING']);
    const chaos = await killTaskManagersAtRandom(cluster, 2, 2_500, 3_000);
    const details = await waitForStatus(cluster.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], 120_000);
    expect(details.summary!.status, `${details.failureCause}\n${chaos.join('\n')}\n${cluster.logs()}`).toBe('FINISHED');
    expect(details.attempt, chaos.join('\n')).toBeGreaterThanOrEqual(1);
    return { output, chaos, cluster, jobId };
  }

  it('gives exactly the expected running sums with full checkpoints in a local dir while TaskManagers are killed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-level-full-'));
    const { output, chaos, cluster, jobId } = await runWithKills({ 'state.backend.rocksdb.localdir': join(dir, 'local') }, [
      join(dir, 'out'),
      String(RECORDS),
      String(RATE),
      '400',
      join(dir, 'checkpoints'),
      'false',
    ]);
    expect(readCommittedLines(output).sort(), chaos.join('\n')).toEqual(expectedRunningSums(RECORDS));
    expect(completedCount((await listCheckpoints(cluster.client, jobId)).checkpoints)).toBeGreaterThan(3);
    expect(existsSync(join(dir, 'checkpoints', jobId, 'shared'))).toBe(false);
  });

  it('keeps keyed state in LevelDB below the local directory when the job takes no checkpoints, as Flink does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-level-unchecked-'));
    const local = join(dir, 'local');
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.backend.rocksdb.localdir': local } });
    cleanups.push(() => cluster.stop());
    const records = 4_000;
    const run = await cluster.weir(['run', '--detached', writeJobFile(LEVEL_RUNNING_SUMS), '--', join(dir, 'out'), String(records), '1000', '0', join(dir, 'checkpoints'), 'false']);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    // One DB per subtask of the keyed operator while the job runs; before, such a job got heap state.
    const databases = () => readdirSync(local, { recursive: true }).map(String).filter((f) => f.endsWith('CURRENT') && f.includes(jobId));
    await until(async () => databases().length, (n) => n === 2, 30_000, 'LevelDB databases of the running job');
    const details = await waitForStatus(cluster.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], 60_000);
    expect(details.summary!.status, details.failureCause).toBe('FINISHED');
    expect(readCommittedLines(join(dir, 'out')).sort()).toEqual(expectedRunningSums(records));
    expect(databases()).toEqual([]);
    expect(existsSync(join(dir, 'checkpoints'))).toBe(false);
  });

  it('gives exactly the expected running sums with incremental checkpoints on S3 (s3rver) while TaskManagers are killed', async () => {
    const s3 = await startS3rver();
    cleanups.push(() => s3.stop());
    const dir = mkdtempSync(join(tmpdir(), 'weir-level-s3-'));
    const { output, chaos } = await runWithKills(
      {
        's3.endpoint': s3.endpoint,
        's3.access-key': s3.settings.accessKey!,
        's3.secret-key': s3.settings.secretKey!,
        's3.path-style-access': 'true',
        // The job names its own checkpoint directory on S3: the JobManager allows only directories it is told.
        'state.savepoints.allowed-dirs': `${tmpdir()},s3://${s3.bucket}`,
      },
      [join(dir, 'out'), String(RECORDS), String(RATE), '400', `s3://${s3.bucket}/checkpoints`, 'true'],
    );
    expect(readCommittedLines(output).sort(), chaos.join('\n')).toEqual(expectedRunningSums(RECORDS));
  });

  it('restores the latest incremental checkpoint after kills while checkpoints overlap: no shared file is deleted while a task may build on it', async () => {
    // Three checkpoints in flight every 20 ms, one retained: a task often takes checkpoint n+1 on the uploads of n-1
    // while the completion of n subsumes n-1, the case where a shared file was deleted too early.
    const dir = mkdtempSync(join(tmpdir(), 'weir-level-overlap-'));
    const { output, chaos, cluster } = await runWithKills(
      { 'state.backend.rocksdb.localdir': join(dir, 'local'), 'execution.checkpointing.max-concurrent-checkpoints': 3, 'state.checkpoints.num-retained': 1 },
      [join(dir, 'out'), String(RECORDS), String(RATE), '20', join(dir, 'checkpoints'), 'true'],
    );
    expect(readCommittedLines(output).sort(), chaos.join('\n')).toEqual(expectedRunningSums(RECORDS));
    expect(cluster.logs().match(/.*cannot be restored.*/g) ?? [], chaos.join('\n')).toEqual([]);
  });

  it('leaves only retained checkpoints and the shared files they refer to after a TaskManager is killed while checkpoints are pending', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-level-leftovers-'));
    const checkpoints = join(dir, 'checkpoints');
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.checkpoints.num-retained': 2, 'execution.checkpointing.max-concurrent-checkpoints': 3 } });
    cleanups.push(() => cluster.stop());
    // Checkpoints every 20 ms, three at a time: a kill almost always finds some pending, with surviving tasks still uploading into them.
    const run = await cluster.weir(['run', '--detached', writeJobFile(LEVEL_RUNNING_SUMS), '--', join(dir, 'out'), '1000000', '2000', '20', checkpoints, 'true']);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForCheckpoints(cluster.client, jobId, (c) => completedCount(c) >= 5, 60_000);
    const chaos = await killTaskManagersAtRandom(cluster, 1, 200, 0);
    const before = completedCount((await listCheckpoints(cluster.client, jobId)).checkpoints);
    await waitForCheckpoints(cluster.client, jobId, (c) => completedCount(c) >= before + 5, 60_000);
    const cancel = await cluster.weir(['cancel', jobId]);
    expect(cancel.code, cancel.stderr).toBe(0);
    const canceled = await waitForStatus(cluster.client, jobId, ['CANCELED']);
    expect(canceled.attempt, chaos.join('\n')).toBeGreaterThanOrEqual(1);
    // The job-end sweep runs after the terminal status; its count says it is over, and what it found left behind: nothing, as the listing below shows.
    const endTimeMs = Number(canceled.summary!.endTimeMs);
    const counted = await until(() => listCheckpoints(cluster.client, jobId), (list) => Number(list.leftBehindCountedAtMs) >= endTimeMs, 60_000, 'the count after the job-end sweep');
    expect([counted.leftBehindFiles, Number(counted.leftBehindBytes)], cluster.logs()).toEqual([0, 0]);

    const jobDir = join(checkpoints, jobId);
    const directories = readdirSync(jobDir).filter((name) => name.startsWith('chk-'));
    const retained = directories.filter((name) => existsSync(join(jobDir, name, '_metadata')));
    expect(retained.length, chaos.join('\n')).toBe(2);
    expect(directories.sort(), `${chaos.join('\n')}\n${cluster.logs()}`).toEqual(retained.sort());
    const referenced = new Set(retained.flatMap((chk) => sharedPathsOf(join(jobDir, chk))));
    // The job's end sweeps shared/ too (every task stopped, so no upload is in flight): only referenced files stay.
    const leftOver = readdirSync(join(jobDir, 'shared')).map((name) => `shared/${name}`).filter((path) => !referenced.has(path));
    expect(leftOver, chaos.join('\n')).toEqual([]);
    const shown = await cluster.weir(['checkpoints', jobId]);
    expect(shown.stdout).toContain('Left behind: none');
  });

  it('keeps in shared/ only files a retained incremental checkpoint refers to, and restores each retained checkpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-level-shared-'));
    const checkpoints = join(dir, 'checkpoints');
    const records = 12_000;
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'state.checkpoints.num-retained': 2 } });
    cleanups.push(() => cluster.stop());
    const job = writeJobFile(LEVEL_RUNNING_SUMS);
    const args = (output: string, rate: number, sinkUid = 'sink') => ['--', output, String(records), String(rate), '200', checkpoints, 'true', sinkUid];
    const run = await cluster.weir(['run', '--detached', job, ...args(join(dir, 'out'), 1_000)]);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    await waitForCheckpoints(cluster.client, jobId, (c) => completedCount(c) >= 5, 60_000);
    // Honest sizes: an incremental checkpoint's full size counts the shared files it refers to, its checkpointed size only what it uploaded.
    const [newest] = (await listCheckpoints(cluster.client, jobId)).checkpoints.filter((c) => c.status === 'COMPLETED' && c.checkpointId > 2);
    expect(Number(newest!.checkpointedBytes), JSON.stringify(newest)).toBeGreaterThan(0);
    expect(Number(newest!.stateBytes), JSON.stringify(newest)).toBeGreaterThan(Number(newest!.checkpointedBytes));
    const cancel = await cluster.weir(['cancel', jobId]);
    expect(cancel.code, cancel.stderr).toBe(0);
    await waitForStatus(cluster.client, jobId, ['CANCELED']);

    const jobDir = join(checkpoints, jobId);
    const retained = readdirSync(jobDir).filter((name) => name.startsWith('chk-') && existsSync(join(jobDir, name, '_metadata')));
    expect(retained.length).toBe(2);
    const referenced = new Set(retained.flatMap((chk) => sharedPathsOf(join(jobDir, chk))));
    expect(referenced.size).toBeGreaterThan(0);
    const inShared = readdirSync(join(jobDir, 'shared')).map((name) => `shared/${name}`);
    expect([...referenced].filter((path) => !inShared.includes(path))).toEqual([]);
    // The log and MANIFEST as segments (and tables, once a memtable was flushed).
    const kinds = new Set([...referenced].map((path) => /(\.ldb|\.log|MANIFEST)-?\d*$/.exec(path)?.[1]));
    expect([kinds.has('.log'), kinds.has('MANIFEST'), kinds.has(undefined)]).toEqual([true, true, false]);
    // The checkpoint in flight at the cancel (triggered once the newest retained one completed) may have uploaded files no
    // completed checkpoint refers to. Any older unreferenced file is one of a subsumed checkpoint that should have been deleted.
    const newestCompleted = Math.max(...retained.map((chk) => statSync(join(jobDir, chk, '_metadata')).mtimeMs));
    const leftOver = inShared.filter((path) => !referenced.has(path) && statSync(join(jobDir, path)).mtimeMs < newestCompleted);
    expect(leftOver).toEqual([]);

    const expected = new Set(expectedRunningSums(records));
    for (const chk of retained) {
      const output = join(dir, `out-${chk}`);
      // A new sink (new uid, -n drops the old one's pending files, which live in the first run's output) writes only what the restored run adds.
      const restored = await cluster.weir(['run', '--detached', '-s', join(jobDir, chk), '-n', job, ...args(output, 4_000, 'restored-sink')]);
      expect(restored.code, restored.stderr).toBe(0);
      const restoredId = jobIdFrom(restored.stdout);
      // A restore that fails restarts the job: stop at the first restart and show why.
      const details = await waitForStatus(cluster.client, restoredId, ['FINISHED', 'FAILED', 'CANCELED', 'RESTARTING'], 60_000);
      expect(details.summary!.status, `${details.failureCause}\n${cluster.logs()}`).toBe('FINISHED');
      expect(checkRestoredSuffix(readCommittedLines(output), expected, records), chk).toEqual([]);
    }
  });
});
