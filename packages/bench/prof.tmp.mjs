import { ProcessCluster, writeJobFile, jobIdFrom } from '../integration-tests/dist/index.js';
import { SHUFFLE } from './prof-job.tmp.mjs';
const dir = process.argv[2];
const records = Number(process.argv[3] ?? 5_000_000);
const reuse = process.argv[4] === 'reuse';
const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 1, config: { 'metrics.fetcher.update-interval': 0 }, taskManagerNodeArgs: dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...(process.env.NOINLINE ? ['--max-inlined-bytecode-size=0'] : [])] : [] });
try {
  const t0 = performance.now();
  const run = await cluster.weir(['run', writeJobFile(SHUFFLE(records, reuse))]);
  const ms = performance.now() - t0;
  console.log(run.code, 'records/s incl. submit', Math.round(records / (ms / 1000)), run.stderr.slice(0, 300));
} finally { await cluster.stop(); }
