import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigOptions, envVarName, type ConfigKey, type ConfigOption } from '@weir/common';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');

function formatDefault(option: ConfigOption): string {
  if (option.type !== 'duration') return option.default === '' ? '(empty)' : `\`${option.default}\``;
  const ms = Number(option.default);
  const [unit, size] = ([['h', 3_600_000], ['min', 60_000], ['s', 1_000]] as const).find(([, size]) => ms % size === 0 && ms > 0) ?? ['ms', 1];
  return `\`${ms / size}${unit}\``;
}

/** The README's configuration table as ConfigOptions says it must be. */
function configTable(): string {
  const rows = (Object.entries(ConfigOptions) as [ConfigKey, ConfigOption][]).map(
    ([key, option]) => `| \`${key}\` | \`${envVarName(key)}\` | ${option.type} | ${formatDefault(option)} | ${option.doc} |`,
  );
  return ['| key | environment variable | type | default | what it does |', '|---|---|---|---|---|', ...rows].join('\n');
}

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
