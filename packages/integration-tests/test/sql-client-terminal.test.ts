import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weirCommand } from '@weir/cli';
import { createJobServiceClient, grpc } from '@weir/rpc';
import { initClusterCredentials, ProcessCluster, repoRoot, TmuxSession } from '../src/index.ts';

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/** The live table's rows on the screen now: `| user | count |` lines of the last table drawn, by user. */
function liveCounts(screen: string): Map<string, number> {
  const last = screen.lastIndexOf('| user_id |');
  const counts = new Map<string, number>();
  for (const match of screen.slice(last).matchAll(/^\|\s+(\d+) \|\s+(\d+) \|$/gm)) counts.set(match[1]!, Number(match[2]));
  return counts;
}

/**
 * `weir sql` in a real terminal (tmux), against a secured process cluster, as a person uses
 * it: a multi-line SELECT with a misspelled column (line, column, "did you mean"), then a
 * GROUP BY SELECT whose live table updates in place as datagen's rows arrive, Ctrl-C that
 * cancels its job and returns to the prompt. Another submitter's and a viewer's token may not
 * fetch the query's rows.
 */
describe('weir sql in a terminal', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'weir-sql-terminal-'));
  const tokens = { alice: 'weir_alice-submitter-token', bob: 'weir_bob-submitter-token', vic: 'weir_vic-viewer-token' };
  let cluster: ProcessCluster;
  let ca: Buffer;
  let terminal: TmuxSession;

  beforeAll(async () => {
    const sec = join(dir, 'sec');
    const init = await initClusterCredentials(sec);
    appendFileSync(join(sec, 'tokens'), `sha256:${sha256(tokens.alice)} submitter alice\nsha256:${sha256(tokens.bob)} submitter bob\nsha256:${sha256(tokens.vic)} viewer vic\n`);
    ca = init.ca;
    // A TaskManager plans the SQL again on its event loop (seconds of parser warm-up): see sql.test.ts.
    cluster = await ProcessCluster.start({ taskManagers: 1, slots: 4, config: { ...init.keys, 'heartbeat.timeout': 20_000 }, clientTls: { ca } });
    const { command, args } = weirCommand(['sql', '-m', cluster.jobManagerAddress, '-D', `security.ssl.internal.ca=${init.caPath}`]);
    terminal = TmuxSession.start([command, ...args], { cwd: repoRoot, env: { WEIR_TOKEN: tokens.alice, WEIR_LOG_LEVEL: 'warn', HOME: dir }, width: 160, height: 50 });
  });

  afterAll(async () => {
    terminal?.close();
    await cluster?.stop();
  });

  it('shows a typo with its line, column and suggestion, a live GROUP BY table that updates, and cancels the query on Ctrl-C', async () => {
    await terminal.waitFor('the prompt', (screen) => screen.includes('Flink SQL>'));
    terminal.typeLine("CREATE TABLE clicks (user_id INT, amount INT) WITH ('connector' = 'datagen', 'rows-per-second' = '20',");
    terminal.typeLine("  'fields.user_id.min' = '1', 'fields.user_id.max' = '3', 'fields.amount.min' = '1', 'fields.amount.max' = '9');");
    await terminal.waitFor('the table created', (screen) => screen.includes('[INFO] Execute statement succeed.'));

    terminal.typeLine('SELECT user_id,');
    terminal.typeLine('  SUM(amountt) AS total FROM clicks GROUP BY user_id;');
    await terminal.waitFor("the typo's line, column and suggestion", (screen) => screen.includes("SQL error at line 2, column 7: Column 'amountt' not found in any table; did you mean 'amount'?"));

    terminal.typeLine('SELECT user_id, COUNT(*) AS cnt FROM clicks GROUP BY user_id;');
    const jobId = await terminal.waitFor("the query's job", (screen) => /\[INFO\] Result of job ([0-9a-f]{32})/.exec(screen)?.[1], 120_000);
    const first = await terminal.waitFor('three users in the live table', (screen) => liveCounts(screen).size === 3 && liveCounts(screen), 120_000);
    // The same table, redrawn in place with higher counts: each user's row is updated, not appended.
    const later = await terminal.waitFor(`every count past ${JSON.stringify([...first])}`, (screen) => {
      const now = liveCounts(screen);
      return [...first].every(([user, count]) => (now.get(user) ?? 0) > count) && now;
    });
    expect(later.size).toBe(3);
    const screen = terminal.capture();
    expect(screen.match(/\| user_id \|/g)?.length, screen).toBe(1);
    expect(screen).toMatch(new RegExp(`Rows: 3 {2}Job ${jobId}: RUNNING`));

    // The rows are alice's: another submitter and a viewer are refused (PERMISSION_DENIED, REST's 403).
    for (const token of [tokens.bob, tokens.vic]) {
      const answer = await fetchAs(cluster.jobManagerAddress, ca, token, jobId);
      expect(answer.code, answer.details).toBe(grpc.status.PERMISSION_DENIED);
      expect(answer.details).toMatch(/may read only the results of the jobs it submitted \(this one was submitted by token:alice\)/);
    }

    terminal.press('C-c');
    await terminal.waitFor('the cancel', (s) => s.includes(`[INFO] Job ${jobId} CANCELED.`));
    expect(await jobStatusAs(cluster.jobManagerAddress, ca, tokens.alice, jobId)).toBe('CANCELED');
    // Back at the prompt: the session goes on.
    terminal.typeLine('SHOW TABLES;');
    await terminal.waitFor('SHOW TABLES after the cancel', (s) => s.includes('|     clicks |'));
  });
});

function tokenMetadata(token: string): grpc.Metadata {
  const metadata = new grpc.Metadata();
  metadata.set('authorization', `Bearer ${token}`);
  return metadata;
}

/** The job's status, read with `token`. */
function jobStatusAs(address: string, ca: Buffer, token: string, jobId: string): Promise<string> {
  const client = createJobServiceClient(address, {}, { ca });
  return new Promise((resolve, reject) => {
    client.getJob({ jobId }, tokenMetadata(token), { deadline: Date.now() + 10_000 }, (err, details) => {
      client.close();
      if (err === null) resolve(details!.summary!.status);
      else reject(err);
    });
  });
}

/** FetchResults of `jobId` with `token`: its status code and details. */
function fetchAs(address: string, ca: Buffer, token: string, jobId: string): Promise<{ code: grpc.status; details: string }> {
  const client = createJobServiceClient(address, {}, { ca });
  const metadata = tokenMetadata(token);
  return new Promise((resolve) => {
    client.fetchResults({ jobId, maxRows: 1 }, metadata, { deadline: Date.now() + 10_000 }, (err) => {
      client.close();
      resolve(err === null ? { code: grpc.status.OK, details: '' } : { code: err.code, details: err.details });
    });
  });
}
