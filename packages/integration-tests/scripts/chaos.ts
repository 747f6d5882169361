/**
 * `pnpm chaos jm-failover [--runs N]`: repeats the JobManager failover scenario (SIGKILLed
 * leader across network namespaces, exact running sums) and prints one line per run and a
 * summary with the failover times. Exits non-zero if any run failed.
 */
import { NetnsLab } from '../src/index.ts';
import { runJmFailover } from '../test/jm-failover.ts';

const HOSTS = ['etcd', 'jm1', 'jm2', 'tm1', 'tm2', 'tm3'];

async function main(argv: readonly string[]): Promise<number> {
  const [scenario, ...rest] = argv;
  const runsAt = rest.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(rest[runsAt + 1]) : 20;
  if (scenario !== 'jm-failover' || !Number.isInteger(runs) || runs < 1) {
    console.error('usage: pnpm chaos jm-failover [--runs N]');
    return 2;
  }
  const lab = NetnsLab.create(HOSTS);
  if (typeof lab === 'string') {
    console.error(`cannot run jm-failover: ${lab}`);
    return 2;
  }
  const results = [];
  try {
    for (let i = 1; i <= runs; i++) {
      const started = Date.now();
      const run = await runJmFailover(lab);
      results.push(run);
      const line = `run ${i}/${runs}: ${run.ok ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s; epoch ${run.oldEpoch} -> ${run.newEpoch}, standby elected ${run.electedMs} ms and job RUNNING again ${run.runningAgainMs} ms after the SIGKILL; attempt ${run.attempt}`;
      console.log(line);
      if (!run.ok) console.log(run.problem);
    }
  } finally {
    lab.destroy();
  }
  const ok = results.filter((r) => r.ok);
  const stats = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length === 0 ? 'n/a' : `min ${sorted[0]} / median ${sorted[Math.floor(sorted.length / 2)]} / max ${sorted.at(-1)} ms`;
  };
  console.log(`jm-failover: ${ok.length}/${runs} exact`);
  console.log(`standby elected after the SIGKILL: ${stats(ok.map((r) => r.electedMs))}`);
  console.log(`job RUNNING again after the SIGKILL: ${stats(ok.map((r) => r.runningAgainMs))}`);
  return ok.length === runs ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
