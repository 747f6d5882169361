import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleJobs } from '@weir/examples';
import { httpAnswer, httpStatus, initClusterCredentials, jobIdFrom, ProcessCluster } from '../src/index.ts';
import { artifactsDir, launchChromium } from '../src/browser.ts';

/** Long enough to outlive the test, which cancels the job. */
const EVENTS = 200_000;
const RATE = 1_000;

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The dashboard of a secured cluster (mutual TLS, HTTPS REST, a tokens file) in a real
 * browser: its login page, a refused token, a viewer who sees jobs but no buttons, an operator
 * who cancels; and the Prometheus endpoints over HTTPS (metrics.reporter.prom.ssl.enabled).
 */
describe('the dashboard of a secured cluster, and its Prometheus endpoints over HTTPS', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'weir-dashboard-login-'));
  const shots = artifactsDir('dashboard-login');
  const tokens = { vic: 'weir_vic-viewer-token', olga: 'weir_olga-operator-token' };
  let cluster: ProcessCluster;
  let ca: Buffer;
  let dashboard: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let jobId: string;
  let step = 0;

  const screenshot = async (name: string): Promise<void> => {
    await page.screenshot({ path: join(shots, `${String(++step).padStart(2, '0')}-${name}.png`), fullPage: true });
  };
  const signIn = async (token: string): Promise<void> => {
    await page.getByTestId('login-token').fill(token);
    await page.getByTestId('login-submit').click();
  };
  /** From the overview (sign-in keeps the page the URL names), the job's page. */
  const openJob = async (): Promise<void> => {
    await page.evaluate(() => {
      location.hash = '#/';
    });
    await page.getByTestId('job-link').filter({ hasText: 'running sums' }).click();
    await expect.poll(() => page.getByTestId('job-status').textContent(), { timeout: 30_000 }).toBe('RUNNING');
  };

  beforeAll(async () => {
    const sec = join(dir, 'sec');
    const init = await initClusterCredentials(sec);
    appendFileSync(join(sec, 'tokens'), `sha256:${sha256(tokens.vic)} viewer vic\nsha256:${sha256(tokens.olga)} operator olga\n`);
    ca = init.ca;
    cluster = await ProcessCluster.start({
      taskManagers: 1,
      slots: 2,
      config: { ...init.keys, 'metrics.reporter.prom.ssl.enabled': 'true', 'web.refresh-interval': 300, 'state.checkpoints.dir': join(dir, 'checkpoints'), 'state.savepoints.dir': join(dir, 'savepoints') },
      clientTls: { ca },
      prometheus: true,
    });
    dashboard = `https://localhost:${new URL(cluster.restUrl).port}`;
    const run = await cluster.weir(['run', '-D', `security.ssl.internal.ca=${init.caPath}`, '--detached', exampleJobs.runningSums, '--', String(EVENTS), String(RATE), join(dir, 'out')], { env: { WEIR_TOKEN: init.adminToken! } });
    expect(run.code, run.stderr).toBe(0);
    jobId = jobIdFrom(run.stdout);
    browser = await launchChromium();
    // The REST certificate is signed by the cluster's own CA, which this browser does not know.
    context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, ignoreHTTPSErrors: true });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await cluster?.stop();
  });

  it('shows the login page and refuses a wrong token with the reason', async () => {
    await page.goto(`${dashboard}/`);
    await expect.poll(() => page.getByTestId('login-token').count(), { timeout: 30_000 }).toBe(1);
    // Nothing of the cluster is shown before sign-in.
    expect(await page.getByTestId('leader').count()).toBe(0);
    await signIn('weir_not-a-token-of-this-cluster');
    await expect.poll(() => page.getByTestId('login-message').textContent()).toBe('The cluster refused this token: the token is not one this cluster knows (not in its tokens file, or revoked)');
    expect(await page.getByTestId('login-token').count()).toBe(1);
    await screenshot('refused');
  });

  it('shows a viewer the job and who submitted it, without the buttons it may not use', async () => {
    await signIn(tokens.vic);
    await expect.poll(() => page.getByTestId('principal').textContent(), { timeout: 30_000 }).toBe('vic (viewer)');
    await openJob();
    expect(page.url()).toContain(`#/jobs/${jobId}`);
    await expect.poll(() => page.getByTestId('job-owner').textContent()).toMatch(/^submitted by token:\S+$/);
    // Hidden, not disabled: neither is in the page.
    expect(await page.getByTestId('cancel-job').count()).toBe(0);
    expect(await page.getByTestId('trigger-savepoint').count()).toBe(0);
    await screenshot('viewer');
  });

  it('returns to the login page with a message when the cluster stops taking the token', async () => {
    // As if the token were revoked from the tokens file: the next poll is answered 401.
    await page.evaluate(() => sessionStorage.setItem('weir.token', 'weir_revoked-token'));
    await expect.poll(() => page.getByTestId('login-message').textContent(), { timeout: 30_000 }).toBe('Signed out: the token is not one this cluster knows (not in its tokens file, or revoked)');
    expect(await page.evaluate(() => sessionStorage.getItem('weir.token'))).toBeNull();
    await screenshot('revoked');
  });

  it('shows an operator the buttons, and cancelling works; signing out returns to the login', async () => {
    await signIn(tokens.olga);
    await expect.poll(() => page.getByTestId('principal').textContent(), { timeout: 30_000 }).toBe('olga (operator)');
    await openJob();
    expect(await page.getByTestId('trigger-savepoint').count()).toBe(1);
    await page.getByTestId('cancel-job').click();
    await page.getByTestId('confirm-cancel').click();
    await expect.poll(() => page.getByTestId('job-status').textContent(), { timeout: 30_000 }).toBe('CANCELED');
    // The JobManager says so too, to a viewer.
    const details = await httpAnswer(`${dashboard}/jobs/${jobId}`, { ca, token: tokens.vic });
    expect(JSON.parse((details as { body: string }).body)).toMatchObject({ state: 'CANCELED' });
    await screenshot('canceled');
    await page.getByTestId('sign-out').click();
    await expect.poll(() => page.getByTestId('login-token').count()).toBe(1);
    expect(await page.getByTestId('login-message').textContent()).toBe('Signed out.');
    expect(await page.evaluate(() => sessionStorage.getItem('weir.token'))).toBeNull();
  });

  it('serves Prometheus metrics over HTTPS to a token, and nothing over plain HTTP', async () => {
    for (const process of [cluster.jobManager, cluster.taskManagers[0]!]) {
      const plain = cluster.metricsUrl(process);
      const https = plain.replace(/^http:\/\/127\.0\.0\.1/, 'https://localhost');
      const scraped = await httpAnswer(https, { ca, token: tokens.vic });
      expect(typeof scraped === 'string' ? scraped : scraped.status, https).toBe(200);
      expect((scraped as { body: string }).body).toContain('process_resident_memory_bytes');
      expect(await httpStatus(https, { ca }), https).toBe(401);
      // Plain HTTP to the TLS port: no HTTP answer at all (the socket is closed), so the token never crosses in clear.
      expect(await httpStatus(plain, { token: tokens.vic }), plain).toBeTypeOf('string');
    }
  });
});
