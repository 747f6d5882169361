import { afterEach, describe, expect, it } from 'vitest';
import { expectedRunningSums, readCommittedLines } from '@weir/examples';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { completedCount, getJob, jobIdFrom, listCheckpoints, ProcessCluster, until, waitForCheckpoints, waitForStatus, writeJobFile } from '../src/index.ts';

/**
 * LEVEL_RUNNING_SUMS with large state and small changes: the first record of each key also
 * writes BALLAST entries of 100 bytes into a map state of the key (about 3 MB over the 14
 * keys), which no later record changes; the running sum is all that changes.
 */
const LEVEL_BALLAST_SUMS = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, MapStateDescriptor, Types, CheckpointingMode, LevelStateBackend, ExternalizedCheckpointCleanup,
  type ValueState, type MapState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder } from '@weir/connectors';

type Event = { key: string; i: number };
const BALLAST = 2000;

class BallastSum extends KeyedProcessFunction<string, Event, string> {
  private sum!: ValueState<number>;
  private ballast!: MapState<number, string>;
  override open(): void {
    this.sum = this.getRuntimeContext().getState(new ValueStateDescriptor('sum', Types.NUMBER));
    this.ballast = this.getRuntimeContext().getMapState(new MapStateDescriptor('ballast', Types.NUMBER, Types.STRING));
  }
  processElement(e: Event, _ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    const sum = this.sum.value();
    if (sum === undefined) for (let j = 0; j < BALLAST; j++) this.ballast.put(j, (e.key + ':' + j + ':').padEnd(100, String.fromCharCode(97 + ((j * 7) % 26))));
    const next = (sum ?? 0) + e.i;
    this.sum.update(next);
    out.collect(e.key + ' ' + e.i + ' ' + next);
  }
}

export default function ballastSums(env: StreamExecutionEnvironment, args: string[]) {
  const [output, records, rate, interval, checkpointDir] = args;
  const n = Number(records);
  env.setParallelism(2);
  env.enableCheckpointing(Number(interval));
  env.getCheckpointConfig().setCheckpointingMode(CheckpointingMode.EXACTLY_ONCE);
  env.getCheckpointConfig().enableExternalizedCheckpoints(ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION);
  env.setStateBackend(new LevelStateBackend(checkpointDir, true));
  env.fromSource(new DataGeneratorSource((i: number): Event => ({ key: (i < n / 2 ? 'a' : 'b') + (i % 7), i }), n, RateLimiterStrategy.perSecond(Number(rate))), 'events').uid('events')
    .keyBy((e: Event) => e.key)
    .process(new BallastSum()).uid('sums')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;

const RECORDS = 24_000;
const RATE = 2_000;

interface ChangelogHandle {
  readonly backend: string;
  readonly files?: { readonly location: string; readonly path: string }[];
  readonly changelog?: { readonly path: string }[];
}

/** The LevelDB handles of the `_metadata` of each retained checkpoint of a job's directory. */
function retainedHandles(jobDir: string): ChangelogHandle[] {
  if (!existsSync(jobDir)) return [];
  const handles: ChangelogHandle[] = [];
  for (const name of readdirSync(jobDir).filter((n) => n.startsWith('chk-'))) {
    let text: string;
    try {
      text = readFileSync(join(jobDir, name, '_metadata'), 'utf8');
    } catch {
      // Not completed, or subsumed and deleted meanwhile.
      continue;
    }
    const metadata = JSON.parse(text) as { operators: { subtasks: ({ keyed?: ChangelogHandle[] } | null)[] }[] };
    for (const operator of metadata.operators) for (const subtask of operator.subtasks) handles.push(...(subtask?.keyed ?? []).filter((h) => h.backend === 'level'));
  }
  return handles;
}

describe('changelog checkpoints (state.backend.changelog.enabled) on the LevelDB backend in a cluster', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('give exactly the expected running sums after a TaskManager is SIGKILLed, and the checkpoint after the restore uploads no more than those before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-level-changelog-'));
    const checkpoints = join(dir, 'checkpoints');
    const output = join(dir, 'out');
    const cluster = await ProcessCluster.start({
      taskManagers: 2,
      slots: 2,
      config: {
        'state.backend.changelog.enabled': 'true',
        // Materialized before the kill, so the restore opens a materialized base and replays the segments since; seldom enough
        // that few checkpoints count a materialization's upload (the first after the restore comes before the restored DB's first).
        'state.backend.changelog.periodic-materialize.interval': '3s',
        'state.checkpoints.num-retained': 2,
        'state.backend.rocksdb.localdir': join(dir, 'local'),
      },
    });
    cleanups.push(() => cluster.stop());
    const run = await cluster.weir(['run', '--detached', writeJobFile(LEVEL_BALLAST_SUMS), '--', output, String(RECORDS), String(RATE), '300', checkpoints]);
    expect(run.code, run.stderr).toBe(0);
    const jobId = jobIdFrom(run.stdout);
    const jobDir = join(checkpoints, jobId);
    // A retained checkpoint on a materialized base with segments since: what the kill below restores from.
    await until(
      async () => retainedHandles(jobDir),
      (handles) => handles.some((h) => (h.files?.length ?? 0) > 0 && (h.changelog?.length ?? 0) > 0),
      60_000,
      'a checkpoint of a materialized base and changelog segments',
    );
    const handles = retainedHandles(jobDir);
    // Every handle is a changelog checkpoint, its base wholly in shared/.
    expect(handles.every((h) => h.changelog !== undefined && (h.files ?? []).every((f) => f.location === 'shared')), JSON.stringify(handles)).toBe(true);
    const beforeKill = (await waitForCheckpoints(cluster.client, jobId, (c) => completedCount(c) >= 12, 60_000)).filter((c) => c.status === 'COMPLETED');
    const lastIdBeforeKill = Math.max(...(await listCheckpoints(cluster.client, jobId)).checkpoints.map((c) => Number(c.checkpointId)));

    await cluster.killTaskManager(cluster.liveTaskManagers[0]);
    await cluster.startTaskManager();
    await until(() => getJob(cluster.client, jobId), (d) => d.attempt >= 1 && d.summary!.status === 'RUNNING', 120_000, 'the job running again after the kill');
    const afterRestore = await waitForCheckpoints(cluster.client, jobId, (c) => c.some((k) => k.status === 'COMPLETED' && Number(k.checkpointId) > lastIdBeforeKill), 60_000);
    const first = afterRestore.filter((c) => c.status === 'COMPLETED' && Number(c.checkpointId) > lastIdBeforeKill).sort((a, b) => Number(a.checkpointId) - Number(b.checkpointId))[0]!;
    // Restored base and segments count as uploaded: the first checkpoint after the restore uploads its interval's changes, as one
    // before the kill did (the median: one in ten also counts a materialization's upload).
    const sizes = beforeKill.filter((c) => Number(c.checkpointId) > 2).map((c) => Number(c.checkpointedBytes)).sort((a, b) => a - b);
    const median = sizes[Math.floor(sizes.length / 2)]!;
    // The state (MBs of ballast) is far larger than an interval's changes: uploading the restored DB again would be many times them.
    expect(median * 20, sizes.join(', ')).toBeLessThan(Number(first.stateBytes));
    expect(Number(first.checkpointedBytes), `after the restore ${JSON.stringify(first)}; before the kill ${sizes.join(', ')}`).toBeLessThan(2 * median);
    // Honest sizes: the full size counts the base and every segment.
    expect(Number(first.stateBytes)).toBeGreaterThan(Number(first.checkpointedBytes));

    const details = await waitForStatus(cluster.client, jobId, ['FINISHED', 'FAILED', 'CANCELED'], 120_000);
    expect(details.summary!.status, `${details.failureCause}\n${cluster.logs()}`).toBe('FINISHED');
    expect(readCommittedLines(output).sort()).toEqual(expectedRunningSums(RECORDS));
  });
});
