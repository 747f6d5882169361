import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleJobs } from '@weir/examples';
import { completedCount, jobIdFrom, ProcessCluster, waitForCheckpoints, waitForStatus } from '../src/index.ts';
import { artifactsDir, launchChromium } from '../src/browser.ts';

/** Long enough to outlive the kill, the restart and the savepoint; the test cancels it. */
const EVENTS = 200_000;
const RATE = 2_000;
/** Long enough for the page (refreshing every 300 ms) to show RESTARTING. */
const RESTART_DELAY = '3s';

describe('the dashboard in a real browser', () => {
  const dir = mkdtempSync(join(tmpdir(), 'weir-dashboard-'));
  const shots = artifactsDir('dashboard');
  let cluster: ProcessCluster;
  let browser: Browser;
  let page: Page;
  let jobId: string;
  let step = 0;

  const screenshot = async (name: string): Promise<void> => {
    await page.screenshot({ path: join(shots, `${String(++step).padStart(2, '0')}-${name}.png`), fullPage: true });
  };
  const status = () => page.getByTestId('job-status');

  beforeAll(async () => {
    cluster = await ProcessCluster.start({
      taskManagers: 2,
      slots: 2,
      config: {
        'state.checkpoints.dir': join(dir, 'checkpoints'),
        'state.savepoints.dir': join(dir, 'savepoints'),
        'web.refresh-interval': 300,
        'restart-strategy.type': 'fixed-delay',
        'restart-strategy.fixed-delay.attempts': 10,
        'restart-strategy.fixed-delay.delay': RESTART_DELAY,
      },
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  });

  afterAll(async () => {
    await browser?.close();
    await cluster?.stop();
  });

  it('shows the running job with its graph', async () => {
    const run = await cluster.weir(['run', '--detached', exampleJobs.runningSums, '--', String(EVENTS), String(RATE), join(dir, 'out')]);
    expect(run.code, run.stderr).toBe(0);
    jobId = jobIdFrom(run.stdout);

    await page.goto(`${cluster.restUrl}/`);
    // The header names the JobManager that leads (and answers).
    await expect.poll(() => page.getByTestId('leader').textContent()).toMatch(/^JobManager \S+:\d+$/);
    await page.getByTestId('job-link').filter({ hasText: 'running sums' }).click();
    await expect.poll(() => status().textContent(), { timeout: 30_000 }).toBe('RUNNING');
    expect(page.url()).toContain(`#/jobs/${jobId}`);
    const vertices = page.locator('[data-vertex-id]');
    await expect.poll(() => vertices.count()).toBe(2);
    expect(await vertices.allTextContents()).toEqual([expect.stringContaining('events'), expect.stringContaining('KeyedProcess -> Sink')]);
    expect(await page.locator('[data-edge]').evaluateAll((edges) => edges.map((e) => e.getAttribute('data-edge')))).toHaveLength(1);
    await expect.poll(() => page.locator('[data-edge]').textContent()).toBe('HASH');
    // The TaskManagers' metrics reach the page: the source sends records every second.
    await expect.poll(() => page.locator('[data-vertex-id] [data-testid=vertex-rates]').first().textContent(), { timeout: 15_000 }).toMatch(/out [1-9][\d.]*k?\/s/);
    await screenshot('running');
  });

  it('goes RESTARTING when a TaskManager is SIGKILLed, then RUNNING again, and shows the restored checkpoint', async () => {
    await waitForCheckpoints(cluster.client, jobId, (c) => completedCount(c) >= 2);
    await cluster.killTaskManager();
    await expect.poll(() => status().textContent(), { timeout: 30_000, interval: 50 }).toBe('RESTARTING');
    await screenshot('restarting');
    await expect.poll(() => status().textContent(), { timeout: 60_000 }).toBe('RUNNING');
    await screenshot('running-again');

    const restored = (await (await fetch(`${cluster.restUrl}/jobs/${jobId}/checkpoints`)).json()) as { latest: { restored: { id: number } | null } };
    expect(restored.latest.restored).not.toBeNull();
    await page.getByTestId('tab-checkpoints').click();
    await expect.poll(() => page.getByTestId('restored').textContent(), { timeout: 10_000 }).toContain(`restored from checkpoint ${restored.latest.restored!.id}`);
    await expect.poll(() => page.getByTestId('checkpoint-history').locator('tbody tr').count()).toBeGreaterThan(1);
    // The restore swept the checkpoint directory and counted what no checkpoint uses.
    await expect.poll(() => page.getByTestId('left-behind').textContent(), { timeout: 30_000 }).toMatch(/^Left behind: /);
    await screenshot('checkpoints');

    await page.getByTestId('tab-exceptions').click();
    // The loss is the attempt's root failure, or came with a consumer's failure that was reported first.
    await expect.poll(() => page.getByTestId('exception-history').textContent()).toContain('TASK_MANAGER_LOST');
    expect(await page.getByTestId('root-exception').textContent()).not.toBe('No failure so far.');
    expect(await page.getByTestId('exception-history').textContent()).toContain('restarted after 3.0 s');
    await screenshot('exceptions');
  });

  it('triggers a savepoint from the page and shows its path', async () => {
    await page.getByTestId('tab-graph').click();
    await page.getByTestId('trigger-savepoint').click();
    await expect.poll(() => page.getByTestId('savepoint-status').textContent(), { timeout: 60_000 }).toMatch(/^Savepoint completed: /);
    const path = (await page.getByTestId('savepoint-status').textContent())!.replace('Savepoint completed: ', '');
    expect(path).toContain(join(dir, 'savepoints'));
    expect(existsSync(join(fileURLToPath(path), '_metadata'))).toBe(true);
    await screenshot('savepoint');
  });

  it('lists the TaskManagers, and cancels the job from the page', async () => {
    await page.getByTestId('nav-taskmanagers').click();
    await expect.poll(() => page.getByTestId('taskmanagers').locator('tbody tr').count()).toBe(1);
    await expect.poll(() => page.getByTestId('taskmanagers').locator('tbody tr').textContent()).toMatch(/MiB \/ /);
    await screenshot('taskmanagers');

    await page.goBack();
    await page.getByTestId('cancel-job').click();
    await page.getByTestId('confirm-cancel').click();
    await expect.poll(() => status().textContent(), { timeout: 30_000 }).toBe('CANCELED');
    await waitForStatus(cluster.client, jobId, ['CANCELED']);
    await screenshot('canceled');
  });
});
