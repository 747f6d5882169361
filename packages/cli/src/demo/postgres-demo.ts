import { WeirError } from '@weir/common';
import { exampleJobs } from '@weir/examples';
import { PostgresServer, postgresAvailable } from '@weir/postgres-server';
import { bundleJob } from '../bundle.ts';
import { JobClient } from '../client/job-client.ts';
import type { LocalCluster } from '../cluster/local-cluster.ts';
import type { CliContext } from '../context.ts';
import { CliErrorCode } from '../errors.ts';

const ACCOUNTS = 10_000;
const WRITE_MS = 10_000;
const KILL_AFTER_MS = 3_000;
const RESTART_AFTER_MS = 6_000;
const VICTIM = 'taskmanager-1';
const SUMMARY_TIMEOUT_MS = 120_000;

/** 40 random inserts, updates and deletes of accounts, one transaction; run by psql on the server. */
const WRITES = `DO $$
DECLARE top int; target int;
BEGIN
  FOR i IN 1..40 LOOP
    SELECT coalesce(max(id), 0) INTO top FROM accounts;
    target := 1 + floor(random() * top);
    CASE floor(random() * 3)
      WHEN 0 THEN INSERT INTO accounts VALUES (top + 1, floor(random() * 1000));
      WHEN 1 THEN UPDATE accounts SET balance = balance + floor(random() * 100) WHERE id = target;
      ELSE DELETE FROM accounts WHERE id = target;
    END CASE;
  END LOOP;
END $$`;

const GROUPED = 'SELECT id % 10, count(*), sum(balance) FROM accounts GROUP BY 1 ORDER BY 1';
const SUMMARY = 'SELECT grp, accounts, total FROM summary ORDER BY grp';

/** Whether this machine can run the PostgreSQL step; says why not in one line when it cannot. */
export function postgresDemoPossible(context: CliContext): boolean {
  if (postgresAvailable()) return true;
  context.out('Skipping the PostgreSQL step: it runs a PostgreSQL 15 instance of its own, which needs PostgreSQL 15\'s binaries and a postgres user; `pnpm demo postgres` runs it alone');
  return false;
}

/**
 * `pnpm demo postgres` (and the last step of `pnpm demo` where PostgreSQL 15 is installed):
 * starts a PostgreSQL instance of its own, fills `accounts`, keeps writing to it (inserts,
 * updates, deletes), runs the postgres-summary example (CDC → balances per group → summary
 * table, EXACTLY_ONCE), SIGKILLs a TaskManager and restarts PostgreSQL during the run, and
 * checks that `summary` ends equal to a GROUP BY over `accounts`.
 */
export async function postgresDemo(cluster: LocalCluster, context: CliContext): Promise<void> {
  context.out('Starting a PostgreSQL 15 instance of our own (wal_level=logical) on a free port…');
  const server = await PostgresServer.start();
  const client = JobClient.connect(cluster.jobManagerAddress);
  const timers: NodeJS.Timeout[] = [];
  try {
    server.psql(`CREATE TABLE accounts (id int PRIMARY KEY, balance int NOT NULL); INSERT INTO accounts SELECT g, g % 1000 FROM generate_series(1, ${ACCOUNTS}) g`);
    server.createDatabase('reporting');
    server.psql('CREATE TABLE summary (grp int PRIMARY KEY, accounts int NOT NULL, total bigint NOT NULL)', 'reporting');
    context.out(`PostgreSQL up on 127.0.0.1:${server.port}: accounts (${ACCOUNTS} rows) in database postgres, summary in database reporting`);
    const bundle = await bundleJob(exampleJobs.postgresSummary);
    const args = ['127.0.0.1', String(server.port), 'postgres', 'weir_demo', `jdbc:postgresql://127.0.0.1:${server.port}/reporting`, '1000'];
    const { jobId } = await client.submit({ bundle: Buffer.from(bundle.code), entryName: bundle.entryName, args, parallelism: 2 });
    context.out(`Job has been submitted with JobID ${jobId}: accounts (CDC) → balances per group → summary, EXACTLY_ONCE`);
    timers.push(
      setTimeout(() => {
        const pid = cluster.supervisor.pid(VICTIM);
        if (pid === undefined) return;
        context.out(`Killing ${VICTIM} (pid ${pid}) with SIGKILL; the cluster restarts it in 2 s`);
        process.kill(pid, 'SIGKILL');
      }, KILL_AFTER_MS),
    );
    let restarting: Promise<void> = Promise.resolve();
    timers.push(
      setTimeout(() => {
        context.out('Restarting PostgreSQL (fast shutdown, then start on the same port and data)');
        restarting = server.restart();
      }, RESTART_AFTER_MS),
    );
    const until = Date.now() + WRITE_MS;
    let batches = 0;
    while (Date.now() < until) {
      await restarting;
      try {
        server.psql(WRITES);
        batches++;
      } catch {
        // The server is restarting: the writer waits for it like any application.
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await restarting;
    context.out(`Wrote ${batches} transactions of 40 changes; waiting for summary to catch up…`);
    const expected = server.psql(GROUPED);
    const deadline = Date.now() + SUMMARY_TIMEOUT_MS;
    while (server.psql(SUMMARY, 'reporting').replaceAll('|', ',') !== expected.replaceAll('|', ',')) {
      if (Date.now() > deadline) {
        throw new WeirError(CliErrorCode.DEMO_FAILED, `summary did not reach the GROUP BY over accounts within ${SUMMARY_TIMEOUT_MS / 1000} s:\nexpected\n${expected}\ngot\n${server.psql(SUMMARY, 'reporting')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const history = await client.checkpoints(jobId);
    context.out(`PostgreSQL: summary equals SELECT id % 10, count(*), sum(balance) FROM accounts GROUP BY 1, after ${history.completed} checkpoints, a TaskManager kill and a server restart`);
    await client.cancel(jobId);
    context.out("The job's replication slot weir_demo stays (a cancelled job keeps it): SELECT pg_drop_replication_slot('weir_demo') drops it; the demo's server is removed now");
  } finally {
    for (const timer of timers) clearTimeout(timer);
    client.close();
    await server.destroy();
  }
}
