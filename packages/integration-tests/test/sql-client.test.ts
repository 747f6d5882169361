import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCommittedLines } from '@weir/examples';
import { ProcessCluster, waitForStatus } from '../src/index.ts';

/**
 * `weir sql` (Flink's SQL client) driven through its stdin against a process cluster: DDL
 * over several lines, SET, SHOW TABLES, DESCRIBE, a mistake (line, column, suggestion; the
 * session goes on), then an INSERT submitted as a job whose id it prints, and whose output is
 * checked here; then a bounded SELECT whose final table is printed when its job finishes.
 */
describe('weir sql, the interactive client', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('runs a piped session: tables, SET, SHOW TABLES, DESCRIBE, an error that keeps the session, an INSERT submitted with its job id printed, a bounded SELECT and its final table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-sql-client-'));
    // A TaskManager plans the SQL again on its event loop (seconds of parser warm-up): see sql.test.ts.
    const cluster = await ProcessCluster.start({ taskManagers: 2, slots: 2, config: { 'heartbeat.timeout': 20_000 } });
    cleanups.push(() => cluster.stop());
    const input = [
      'CREATE TABLE numbers (',
      '  id BIGINT',
      ") WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '300');",
      `CREATE TABLE odd (id BIGINT, label STRING) WITH ('connector' = 'filesystem', 'path' = '${join(dir, 'out')}', 'format' = 'csv');`,
      "SET 'table.exec.state.ttl' = '1 h';",
      'SHOW TABLES;',
      'DESCRIBE odd;',
      "INSERT INTO odd SELECT idd, 'x' FROM numbers;",
      "INSERT INTO odd SELECT id, CONCAT('n', CAST(id % 4 AS STRING))",
      '  FROM numbers WHERE id % 2 = 1;',
      // A bounded query: its job finishes and, without a terminal, the final table is printed once.
      'SELECT k, COUNT(*) AS cnt FROM (SELECT id % 3 AS k FROM numbers) AS t GROUP BY k;',
      'QUIT;',
    ].join('\n');
    const session = await cluster.weir(['sql', '-p', '2'], { input, timeoutMs: 180_000 });
    expect(session.code, session.stderr).toBe(0);
    const out = session.stdout;
    expect(out).toContain(['+------------+', '| table name |', '+------------+', '|    numbers |', '|        odd |', '+------------+', '2 rows in set'].join('\n'));
    expect(out).toContain('|    id | BIGINT | TRUE |     |        |           |');
    expect(out).toContain("[ERROR] Could not execute SQL statement. Reason:\nSQL error at line 1, column 24: Column 'idd' not found in any table; did you mean 'id'?");
    const jobId = /Job ID: ([0-9a-f]{32})/.exec(out)?.[1];
    expect(jobId, out).toBeDefined();
    const queryJobId = /\[INFO\] Result of job ([0-9a-f]{32})/.exec(out)?.[1];
    expect(queryJobId, out).toBeDefined();
    // Each of the 300 ids counted once, though the collect sink waits for the JobManager's credit.
    for (const k of [0, 1, 2]) expect(out).toContain(`| ${k} | 100 |`);
    expect(out).toContain(`Rows: 3  Job ${queryJobId}: FINISHED  (ended)\n[INFO] Job ${queryJobId} FINISHED.`);
    // Only the good INSERT, and the query, reached the cluster.
    expect((await cluster.weir(['list'])).stdout.match(/[0-9a-f]{32}/g)?.sort()).toEqual([jobId, queryJobId].sort());
    const details = await waitForStatus(cluster.client, jobId!, ['FINISHED', 'FAILED', 'CANCELED'], 120_000);
    expect(details.summary!.status, details.failureCause).toBe('FINISHED');
    const expected = Array.from({ length: 150 }, (_, i) => 2 * i + 1).map((id) => `${id},n${id % 4}`);
    expect(readCommittedLines(join(dir, 'out')).sort()).toEqual(expected.sort());
  });
});
