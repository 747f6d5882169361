import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { repoRoot } from './process.ts';

/** Debian's Chromium, which `.ci/run` installs (`apt-get install chromium`); Playwright downloads nothing. */
export const CHROMIUM = '/usr/bin/chromium';

/** Headless Chromium as the tests drive it: no sandbox (root in CI), and no traffic of its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** Where tests keep screenshots: `artifacts/<name>` in the repo (gitignored), or below WEIR_ARTIFACTS_DIR. */
export function artifactsDir(name: string): string {
  const dir = join(process.env.WEIR_ARTIFACTS_DIR ?? join(repoRoot, 'artifacts'), name);
  mkdirSync(dir, { recursive: true });
  return dir;
}
