import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { initClusterCredentials, jobIdFrom, ProcessCluster, repoRoot, writeJobFile, type ClusterCredentials } from '@weir/integration-tests';
import { runHandWrittenShuffle } from '../hand-written-shuffle.ts';
import { timeRunningToFinished } from '../job-timing.ts';
import { cpuSeconds } from '../process-cpu.ts';
import type { Scenario, ScenarioResult } from '../scenario.ts';
import { median } from '../stats.ts';

export const RECORDS = 10_000_000;
/** Every run appends a row here (medians of its rounds), for comparisons over time. */
const CSV = join(repoRoot, 'packages/bench/results/shuffle.csv');
const CSV_HEADER =
  'date,commit,records,rounds,load_average,weir_on_rps,weir_off_rps,weir_reuse_rps,hand_written_rps,' +
  'cpu_ns_on,cpu_ns_off,cpu_ns_reuse,cpu_ns_hand_written,hand_written_to_weir_cpu_on,hand_written_to_weir_cpu_off,hand_written_to_weir_cpu_reuse';
const KEYS = 10_000;

/** The record the job makes from an index: the hand-written shuffle's makeRecord. */
const RECORD_EXPRESSION = `({ key: 'user-' + (i % ${KEYS}), amount: i % 100 })`;

/** The shuffle job; `args[0]`, when not empty, is a checkpoint interval in ms; `args[1]` 'reuse' enables object reuse. */
export const SHUFFLE_JOB = `
import { StreamExecutionEnvironment, KeyedProcessFunction, ValueStateDescriptor, Types, type ValueState, type Collector, type KeyedProcessContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

type Event = { key: string; amount: number };

class Count extends KeyedProcessFunction<string, Event, number> {
  private count!: ValueState<number>;
  override open(): void {
    this.count = this.getRuntimeContext().getState(new ValueStateDescriptor('count', Types.NUMBER));
  }
  processElement(_e: Event, _ctx: KeyedProcessContext<string>, out: Collector<number>): void {
    const next = (this.count.value() ?? 0) + 1;
    this.count.update(next);
    out.collect(next);
  }
}

export default function shuffle(env: StreamExecutionEnvironment, args: string[]) {
  env.setParallelism(2);
  // args[0]: checkpoint interval in ms (checkpointing off when absent).
  if (args[0]) env.enableCheckpointing(Number(args[0]));
  if (args[1] === 'reuse') env.getConfig().enableObjectReuse();
  env.fromSource(new DataGeneratorSource((i: number): Event => ${RECORD_EXPRESSION}, ${RECORDS}, RateLimiterStrategy.noOp()), 'generator').uid('generator')
    .keyBy((e: Event) => e.key)
    .process(new Count()).uid('count')
    .sinkTo(new DiscardingSink<number>()).uid('sink');
}
`;

/** Weir (metrics off, then on) and the hand-written shuffle take turns this many times; the figures are medians. */
const ROUNDS = 3;

/** How the shuffle job is measured with metrics on: Prometheus scrapes every process this often, as a busy setup would. */
const SCRAPE_INTERVAL_MS = 1_000;

/**
 * One run of the job on a fresh cluster: with metrics on (every process serves /metrics,
 * scraped every second, and TaskManagers send task metrics every second) or off
 * (metrics.fetcher.update-interval 0, no endpoint); with object reuse, records to the
 * consumer in the same TaskManager are handed over without encoding. Resolves with records/s
 * and the CPU time the TaskManagers (every thread) used from the job's RUNNING to its end.
 */
async function runShuffle(metrics: boolean, profileDir: string | undefined, objectReuse = false, tls?: ClusterCredentials): Promise<Run> {
  const cluster = await ProcessCluster.start({
    taskManagers: 2,
    slots: 1,
    prometheus: metrics,
    // With tls: mutual TLS on every connection inside the cluster (no tokens: the bench's clients are not what it measures).
    config: { 'metrics.fetcher.update-interval': metrics ? '1s' : 0, ...tlsConfig(tls) },
    taskManagerNodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    clientTls: tls === undefined ? undefined : { ca: tls.ca },
  });
  let scraping = metrics;
  const scraper = (async () => {
    while (scraping) {
      await Promise.all([cluster.jobManager, ...cluster.taskManagers].map((p) => fetch(cluster.metricsUrl(p)).then((r) => r.text())));
      await new Promise((resolve) => setTimeout(resolve, SCRAPE_INTERVAL_MS));
    }
  })();
  try {
    const caArgs = tls === undefined ? [] : ['-D', `security.ssl.internal.ca=${tls.caPath}`];
    const submit = await cluster.weir(['run', ...caArgs, '--detached', writeJobFile(SHUFFLE_JOB), ...(objectReuse ? ['--', '', 'reuse'] : [])]);
    if (submit.code !== 0) throw new Error(`submit failed: ${submit.stderr}`);
    const cpu = (): number => cluster.taskManagers.reduce((sum, tm) => sum + cpuSeconds(tm.pid), 0);
    let cpuAtRunning = 0;
    const ms = await timeRunningToFinished(cluster.client, jobIdFrom(submit.stdout), undefined, () => (cpuAtRunning = cpu()));
    return { rate: RECORDS / (ms / 1000), cpuSeconds: cpu() - cpuAtRunning };
  } finally {
    scraping = false;
    await scraper;
    await cluster.stop();
  }
}

/** The internal TLS keys of `weir security init`'s files: the JobManager, TaskManagers, data exchange and liveness over mutual TLS. */
function tlsConfig(tls: ClusterCredentials | undefined): Record<string, string> {
  if (tls === undefined) return {};
  return Object.fromEntries(Object.entries(tls.keys).filter(([key]) => key.startsWith('security.ssl.internal.')));
}

/**
 * `--tls`: the shuffle job (metrics off) with mutual TLS inside the cluster and without, ROUNDS
 * alternated rounds on fresh clusters, records/s and CPU per record of each and their ratios.
 */
async function runTlsComparison(): Promise<ScenarioResult> {
  const tls = await initClusterCredentials(join(mkdtempSync(join(tmpdir(), 'weir-bench-tls-')), 'security'));
  const rounds: { plain: Run; tls: Run }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // The order swapped each round, so neither always runs first on a machine that warms up or gets busier.
    const first = round % 2 === 0 ? await runShuffle(false, undefined) : await runShuffle(false, undefined, false, tls);
    const second = round % 2 === 0 ? await runShuffle(false, undefined, false, tls) : await runShuffle(false, undefined);
    rounds.push(round % 2 === 0 ? { plain: first, tls: second } : { plain: second, tls: first });
  }
  const rate = (pick: (r: (typeof rounds)[number]) => Run): number => Math.round(median(rounds.map((r) => pick(r).rate)));
  const ns = (run: Run): number => (run.cpuSeconds * 1e9) / RECORDS;
  const ratio = median(rounds.map((r) => r.tls.rate / r.plain.rate));
  const cpuRatio = median(rounds.map((r) => ns(r.tls) / ns(r.plain)));
  return {
    figures: {
      recordsPerSecondPlain: rate((r) => r.plain),
      recordsPerSecondTls: rate((r) => r.tls),
      tlsToPlainRatio: ratio,
      cpuNsPerRecordPlain: Math.round(median(rounds.map((r) => ns(r.plain)))),
      cpuNsPerRecordTls: Math.round(median(rounds.map((r) => ns(r.tls)))),
      tlsToPlainCpuPerRecord: cpuRatio,
    },
    rows: [
      ['Weir, plain connections', rate((r) => r.plain).toLocaleString('en'), 'records/s'],
      ['Weir, mutual TLS inside the cluster', rate((r) => r.tls).toLocaleString('en'), 'records/s'],
      ['TLS / plain (aim >= 0.9)', ratio.toFixed(3), ''],
      ['CPU per record, TLS / plain', cpuRatio.toFixed(3), ''],
      ...rounds.map((r, i) => [`round ${i + 1}: plain, TLS`, `${(r.plain.rate / 1e6).toFixed(2)}, ${(r.tls.rate / 1e6).toFixed(2)}`, `M records/s; ${ns(r.plain).toFixed(0)}, ${ns(r.tls).toFixed(0)} ns CPU per record`] as const),
    ],
  };
}

/** One row of results/shuffle.csv: the date, commit, size and load average, then `figures`. */
function appendCsv(figures: readonly (number | string)[]): void {
  mkdirSync(dirname(CSV), { recursive: true });
  if (!existsSync(CSV)) appendFileSync(CSV, `${CSV_HEADER}\n`);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  // The machine is shared: the load average says how far to trust the rates (CPU per record moves less).
  const cells = [new Date().toISOString(), commit, RECORDS, ROUNDS, loadavg()[0]!.toFixed(2), ...figures];
  appendFileSync(CSV, `${cells.join(',')}\n`);
}

/** Records/s, and CPU seconds of the processes that did the work (Weir's TaskManagers; the hand-written shuffle's four processes). */
interface Run {
  readonly rate: number;
  readonly cpuSeconds: number;
}

interface Round {
  readonly off: Run;
  readonly on: Run;
  readonly reuse: Run;
  readonly handWritten: Run;
}

export const shuffle: Scenario = {
  name: 'shuffle',
  description:
    `generator -> keyBy -> ValueState count -> discard; ${RECORDS / 1e6}M records, ${KEYS} keys, parallelism 2 on 2 TaskManagers (metrics off, then on, then object reuse with metrics off), ` +
    `against the same shuffle written by hand (2 producer + 2 consumer processes, msgpackr over TCP); ${ROUNDS} alternated rounds, medians`,
  async run({ profileDir, tls }) {
    if (tls === true) return runTlsComparison();
    // Alternating, on fresh clusters, so a noisy neighbour hurts every contender alike.
    const rounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const off = await runShuffle(false, undefined);
      const on = await runShuffle(true, round === 0 ? profileDir : undefined);
      const reuse = await runShuffle(false, undefined, true);
      const handWrittenRun = await runHandWrittenShuffle(RECORDS, KEYS);
      const handWritten = { rate: RECORDS / (handWrittenRun.ms / 1000), cpuSeconds: handWrittenRun.cpuSeconds };
      rounds.push({ off, on, reuse, handWritten });
    }
    const rate = (pick: (r: Round) => Run): number => Math.round(median(rounds.map((r) => pick(r).rate)));
    const ratio = median(rounds.map((r) => r.on.rate / r.handWritten.rate));
    const ratioOff = median(rounds.map((r) => r.off.rate / r.handWritten.rate));
    const metricsRatio = median(rounds.map((r) => r.on.rate / r.off.rate));
    const ratioReuse = median(rounds.map((r) => r.reuse.rate / r.handWritten.rate));
    // CPU per record is the work each does per record; records/s also says how much of the shared machine it got.
    const ns = (run: Run): number => (run.cpuSeconds * 1e9) / RECORDS;
    const cpuNs = (pick: (r: Round) => Run): number => median(rounds.map((r) => ns(pick(r))));
    // The aim (>= 0.9): hand-written / Weir in CPU per record with metrics on and object reuse off.
    const cpuRatioOn = median(rounds.map((r) => ns(r.handWritten) / ns(r.on)));
    const cpuRatioOff = median(rounds.map((r) => ns(r.handWritten) / ns(r.off)));
    const cpuRatioReuse = median(rounds.map((r) => ns(r.handWritten) / ns(r.reuse)));
    const M = (n: number): string => (n / 1e6).toFixed(2);
    appendCsv([
      rate((r) => r.on), rate((r) => r.off), rate((r) => r.reuse), rate((r) => r.handWritten),
      ...[cpuNs((r) => r.on), cpuNs((r) => r.off), cpuNs((r) => r.reuse), cpuNs((r) => r.handWritten)].map(Math.round),
      ...[cpuRatioOn, cpuRatioOff, cpuRatioReuse].map((x) => x.toFixed(3)),
    ]);
    return {
      figures: {
        recordsPerSecond: rate((r) => r.on),
        recordsPerSecondMetricsOff: rate((r) => r.off),
        handWrittenRecordsPerSecond: rate((r) => r.handWritten),
        ratioToHandWritten: ratio,
        ratioToHandWrittenMetricsOff: ratioOff,
        metricsOnToOffRatio: metricsRatio,
        recordsPerSecondObjectReuse: rate((r) => r.reuse),
        ratioToHandWrittenObjectReuse: ratioReuse,
        cpuNsPerRecordMetricsOn: Math.round(cpuNs((r) => r.on)),
        cpuNsPerRecordMetricsOff: Math.round(cpuNs((r) => r.off)),
        cpuNsPerRecordObjectReuse: Math.round(cpuNs((r) => r.reuse)),
        handWrittenCpuNsPerRecord: Math.round(cpuNs((r) => r.handWritten)),
        handWrittenToWeirCpuPerRecordMetricsOn: cpuRatioOn,
        handWrittenToWeirCpuPerRecordMetricsOff: cpuRatioOff,
        handWrittenToWeirCpuPerRecordObjectReuse: cpuRatioReuse,
      },
      rows: [
        ['Weir, metrics on', rate((r) => r.on).toLocaleString('en'), 'records/s'],
        ['Weir, metrics off', rate((r) => r.off).toLocaleString('en'), 'records/s'],
        ['Weir, object reuse, metrics off', rate((r) => r.reuse).toLocaleString('en'), 'records/s'],
        ['hand-written', rate((r) => r.handWritten).toLocaleString('en'), 'records/s'],
        ['Weir (metrics on) / hand-written', ratio.toFixed(3), ''],
        ['Weir (metrics off) / hand-written', ratioOff.toFixed(3), ''],
        ['Weir (object reuse) / hand-written', ratioReuse.toFixed(3), ''],
        ['metrics on / off', metricsRatio.toFixed(3), ''],
        ['CPU per record: Weir off, on, reuse, hand-written', `${cpuNs((r) => r.off).toFixed(0)}, ${cpuNs((r) => r.on).toFixed(0)}, ${cpuNs((r) => r.reuse).toFixed(0)}, ${cpuNs((r) => r.handWritten).toFixed(0)}`, 'ns CPU (TaskManagers; the 4 hand-written processes)'],
        ['hand-written / Weir CPU per record (metrics on; aim >= 0.9)', cpuRatioOn.toFixed(3), ''],
        ['hand-written / Weir CPU per record (metrics off)', cpuRatioOff.toFixed(3), ''],
        ['hand-written / Weir CPU per record (object reuse)', cpuRatioReuse.toFixed(3), ''],
        ...rounds.map((r, i) => {
          const runs = [r.off, r.on, r.reuse, r.handWritten];
          return [`round ${i + 1}: off, on, reuse, hand-written`, runs.map((run) => M(run.rate)).join(', '), `M records/s; ${runs.map((run) => ns(run).toFixed(0)).join(', ')} ns CPU per record`] as const;
        }),
      ],
    };
  },
};
