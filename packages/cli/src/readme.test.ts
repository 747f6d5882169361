import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { configTable } from './config-table.ts';
import { describe, expect, it } from 'vitest';
import { buildProgram, type CliActions } from './program.ts';

const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');

/** The options every command or every client command has, which the README names once below its command table. */
const SHARED_OPTIONS = new Set(['-c', '-D', '-m', '--token-file']);

/** Every command of the `weir` program as its words (`cluster start`), with the flags of its own options. */
function commands(): { readonly path: string; readonly flags: string[] }[] {
  const program = buildProgram(new Proxy({} as CliActions, { get: () => async () => {} }));
  const leaves = (command: Command, path: string[]): { path: string; flags: string[] }[] =>
    command.commands.flatMap((sub) =>
      sub.commands.length > 0
        ? leaves(sub, [...path, sub.name()])
        : [{ path: [...path, sub.name()].join(' '), flags: sub.options.map((o) => o.short ?? o.long!).filter((f) => !SHARED_OPTIONS.has(f)) }],
    );
  return leaves(program, []);
}

/** The rows of the README's command table: the `weir …` forms in the first column, and the whole row. */
function commandRows(): { readonly forms: string[]; readonly row: string }[] {
  const section = readme.slice(readme.indexOf('\n## Commands'), readme.indexOf('\n## ', readme.indexOf('\n## Commands') + 1));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `weir '))
    .map((row) => ({ forms: [...row.split(' | ')[0]!.matchAll(/`(weir [^`]+)`/g)].map((m) => m[1]!), row }));
}


describe('README.md', () => {
  it('lists every config key as ConfigOptions defines it', () => {
    expect(readme).toContain(configTable());
  });

  it('lists every command with its options in the command table, and no command the CLI does not have', () => {
    const rows = commandRows();
    const formsOf = (path: string) => rows.filter((r) => r.forms.some((form) => form === `weir ${path}` || form.startsWith(`weir ${path} `)));
    for (const { path, flags } of commands()) {
      const matching = formsOf(path);
      expect(matching, `README command table has no row for weir ${path}`).not.toEqual([]);
      for (const flag of flags) expect(matching.some((r) => r.row.includes(flag)), `README does not give ${flag} of weir ${path}`).toBe(true);
    }
    const known = commands().map((c) => c.path);
    for (const form of rows.flatMap((r) => r.forms)) {
      expect(known.some((path) => form === `weir ${path}` || form.startsWith(`weir ${path} `)), `README lists ${form}, which the CLI does not have`).toBe(true);
    }
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
