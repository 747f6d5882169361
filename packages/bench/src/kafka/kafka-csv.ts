import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '@weir/integration-tests';

/** Every run appends a row per delivery guarantee here, for comparisons over time. */
const CSV = join(repoRoot, 'packages/bench/results/kafka.csv');
const CSV_HEADER =
  'date,commit,records,guarantee,load_average_1m,weir_rps,java_copy_rps,node_copy_rps,weir_over_java,weir_over_node,' +
  'weir_cpu_s_per_m,broker_cpu_s_per_m_weir,java_cpu_s_per_m,broker_cpu_s_per_m_java,node_cpu_s_per_m,broker_cpu_s_per_m_node,profiled';

/** One side of a comparison: wall time, and CPU seconds of its own processes and of the broker meanwhile. */
export interface Side {
  readonly ms: number;
  readonly cpuSeconds: number;
  readonly brokerCpuSeconds: number;
}

/** One guarantee's round: Weir and both plain copies, with the 1-minute load average when it ended. */
export interface Round {
  readonly guarantee: string;
  readonly weir: Side;
  readonly java: Side;
  readonly node: Side;
  readonly load: number;
}

export const recordsPerSecond = (records: number, side: Side): number => records / (side.ms / 1000);
export const cpuPerMillion = (records: number, seconds: number): number => (seconds * 1e6) / records;

/** `profiled`: the TaskManagers ran with --cpu-prof (bench --profile), which costs them CPU. */
export function appendKafkaCsv(records: number, round: Round, profiled: boolean): void {
  mkdirSync(dirname(CSV), { recursive: true });
  if (!existsSync(CSV)) appendFileSync(CSV, `${CSV_HEADER}\n`);
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  const { weir, java, node } = round;
  const rate = (side: Side) => recordsPerSecond(records, side);
  const cpu = (seconds: number) => cpuPerMillion(records, seconds).toFixed(2);
  const cells = [
    new Date().toISOString(),
    commit,
    records,
    round.guarantee,
    round.load.toFixed(2),
    Math.round(rate(weir)),
    Math.round(rate(java)),
    Math.round(rate(node)),
    (rate(weir) / rate(java)).toFixed(3),
    (rate(weir) / rate(node)).toFixed(3),
    cpu(weir.cpuSeconds),
    cpu(weir.brokerCpuSeconds),
    cpu(java.cpuSeconds),
    cpu(java.brokerCpuSeconds),
    cpu(node.cpuSeconds),
    cpu(node.brokerCpuSeconds),
    profiled,
  ];
  appendFileSync(CSV, `${cells.join(',')}\n`);
}
