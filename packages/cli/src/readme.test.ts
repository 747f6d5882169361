import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configTable } from './config-table.ts';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');


describe('README.md', () => {
  it('lists every config key as ConfigOptions defines it', () => {
    expect(readme).toContain(configTable());
  });

  it('installs the pnpm of package.json in the fresh-machine command and in CI', () => {
    const packageManager = (JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')) as { packageManager: string })
      .packageManager;
    const ci = readFileSync(fileURLToPath(new URL('../../../.ci/run', import.meta.url)), 'utf8');
    expect(packageManager).toBe('pnpm@12.4.2');
    expect(ci).toContain('PNPM_VERSION=12.4.2');
  });

  it('gives the fresh-machine commands', () => {
    expect(readme).toContain('npm install -g pnpm@12.4.2 && pnpm install && pnpm demo');
    expect(readme).toContain('pnpm test');
  });
});
