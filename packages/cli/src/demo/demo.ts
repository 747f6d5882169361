import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, WeirError } from '@weir/common';
import { checkWordCount, exampleData, exampleJobs, readCommittedLines } from '@weir/examples';
import { bundleJob } from '../bundle.ts';
import { JobClient } from '../client/job-client.ts';
import { deadline } from '../cluster/deadline.ts';
import { freePort } from '@weir/common';
import { LocalCluster } from '../cluster/local-cluster.ts';
import { followJob } from '../commands/follow-job.ts';
import type { CliContext } from '../context.ts';
import { CliErrorCode } from '../errors.ts';
import { fraudDemo } from './fraud-demo.ts';
import { kafkaDemo, kafkaDemoPossible } from './kafka-demo.ts';
import { postgresDemo, postgresDemoPossible } from './postgres-demo.ts';
import { recoveryDemo } from './recovery-demo.ts';

const PARALLELISM = 2;
const JOB_TIMEOUT_MS = 180_000;

/**
 * `pnpm demo`: a local cluster of one JobManager and two TaskManagers runs the word-count
 * example at parallelism 2 and checks the committed output against counts it computes itself
 * from the input; then it runs the checkpointed running-sums example, kills a TaskManager
 * mid-run and checks the output is exactly-once (recovery-demo.ts); then Flink's
 * fraud-detection walkthrough with its timers (fraud-demo.ts); last, where a JDK is present,
 * the Kafka step (kafka-demo.ts), and where PostgreSQL 15 is installed the PostgreSQL step
 * (postgres-demo.ts); `pnpm demo kafka` and `pnpm demo postgres` run one of those alone. It stops the cluster
 * whatever happens. Process logs go to a file that is kept, with the output, when the demo fails.
 */
export async function demo(context: CliContext, steps: 'all' | 'kafka' | 'postgres' = 'all'): Promise<void> {
  if (steps === 'kafka' && !kafkaDemoPossible(context)) {
    throw new WeirError(CliErrorCode.DEMO_FAILED, 'the Kafka demo needs a JDK 17+ (`java` on the PATH) and Maven to run its broker');
  }
  if (steps === 'postgres' && !postgresDemoPossible(context)) {
    throw new WeirError(CliErrorCode.DEMO_FAILED, 'the PostgreSQL demo needs PostgreSQL 15 (/usr/lib/postgresql/15/bin) and a postgres user to run its own instance');
  }
  const dir = mkdtempSync(join(tmpdir(), 'weir-demo-'));
  const log = createWriteStream(join(dir, 'cluster.log'));
  const logger = createLogger('demo');
  logger.level = 'warn';
  const port = await freePort();
  const restPort = await freePort();
  context.out(`Starting a local cluster: a JobManager on 127.0.0.1:${port} and 2 TaskManagers (logs: ${join(dir, 'cluster.log')})`);
  context.out(`Watch it in the web dashboard while the demo runs: http://127.0.0.1:${restPort}`);
  let cluster: LocalCluster | undefined;
  let passed = false;
  try {
    cluster = await LocalCluster.start({
      taskManagers: 2,
      slots: 2,
      dir: join(dir, 'cluster'),
      dynamic: {
        'jobmanager.rpc.address': '127.0.0.1',
        'jobmanager.rpc.port': String(port),
        'rest.port': String(restPort),
        'rest.bind-address': '127.0.0.1',
        'taskmanager.host': '127.0.0.1',
        'heartbeat.interval': '1s',
        'heartbeat.timeout': '5s',
      },
      env: { ...context.env },
      cwd: dir,
      clock: context.clock,
      logger,
      onLine: (name, _stream, line) => log.write(`${name} | ${line}\n`),
    });
    if (steps === 'all') {
      const output = join(dir, 'output');
      await runWordCount(cluster, exampleData.taleOfTwoCities, output, context);
      verify(exampleData.taleOfTwoCities, output, context);
      await recoveryDemo(cluster, join(dir, 'running-sums'), context);
      await fraudDemo(cluster, join(dir, 'alerts'), context);
    }
    if (steps === 'kafka' || (steps === 'all' && kafkaDemoPossible(context))) await kafkaDemo(cluster, context);
    if (steps === 'postgres' || (steps === 'all' && postgresDemoPossible(context))) await postgresDemo(cluster, context);
    passed = true;
  } finally {
    await cluster?.stop();
    await new Promise((resolve) => log.end(resolve));
    if (passed) rmSync(dir, { recursive: true, force: true });
    else context.err(`The cluster's logs and the job's output are kept in ${dir}`);
  }
}

async function runWordCount(cluster: LocalCluster, input: string, output: string, context: CliContext): Promise<void> {
  const bundle = await bundleJob(exampleJobs.wordCount);
  const client = JobClient.connect(cluster.jobManagerAddress);
  const timeout = deadline(
    context.clock,
    JOB_TIMEOUT_MS,
    () => new WeirError(CliErrorCode.DEMO_FAILED, `the word count job did not finish within ${JOB_TIMEOUT_MS / 1000} s`),
  );
  try {
    const submission = { bundle: Buffer.from(bundle.code), entryName: bundle.entryName, args: [input, output], parallelism: PARALLELISM };
    const { jobId } = await client.submit(submission);
    context.out(`Job has been submitted with JobID ${jobId}: word count of ${input} at parallelism ${PARALLELISM}`);
    const lost = cluster.jobManagerLost.then((reason) => Promise.reject(new WeirError(CliErrorCode.CLUSTER_PROCESS_FAILED, reason)));
    await Promise.race([followJob(client, jobId, context), lost, timeout.expired]);
  } finally {
    timeout.cancel();
    client.close();
  }
}

function verify(input: string, output: string, context: CliContext): void {
  const check = checkWordCount(readFileSync(input, 'utf8'), readCommittedLines(output));
  if (check.differences.length > 0) {
    const shown = check.differences.slice(0, 10).map((line) => `  ${line}`);
    if (check.differences.length > 10) shown.push(`  … and ${check.differences.length - 10} more`);
    throw new WeirError(CliErrorCode.DEMO_FAILED, `the word count in ${output} differs from the counts of ${input}:\n${shown.join('\n')}`);
  }
  context.out(`word count: ${check.words} words, ${check.distinct} distinct, output matches expected`);
}
