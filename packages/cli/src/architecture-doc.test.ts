import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = new URL('../../../', import.meta.url);
const architecture = readFileSync(fileURLToPath(new URL('docs/architecture.md', repo)), 'utf8');

/** Every workspace package: its name and the other Weir packages its package.json depends on (short names). */
function packages(): Map<string, string[]> {
  const dir = new URL('packages/', repo);
  const result = new Map<string, string[]>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const manifest = JSON.parse(readFileSync(fileURLToPath(new URL(`${entry.name}/package.json`, dir)), 'utf8')) as {
      name: string;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    const weir = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => name.startsWith('@weir/'));
    result.set(manifest.name, weir.map((name) => name.slice('@weir/'.length)).sort());
  }
  return result;
}

/** The rows of the architecture doc's package table: package name and its "depends on" column. */
function packageTable(): Map<string, string[]> {
  const section = architecture.slice(architecture.indexOf('## Packages'), architecture.indexOf('\n## ', architecture.indexOf('## Packages') + 1));
  const rows = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const cells = line.split(' | ');
    // create-weir is the one package outside the @weir scope (npm create needs that name).
    const name = /^\| `(@weir\/[^`]+|create-weir)`$/.exec(cells[0] ?? '')?.[1];
    if (name === undefined) continue;
    const dependsOn = (cells.at(-1) ?? '').replace(/\s*\|$/, '').trim();
    rows.set(name, dependsOn === '—' ? [] : dependsOn.split(',').map((d) => d.trim()).sort());
  }
  return rows;
}

describe('docs/architecture.md', () => {
  it('has one row per package, each naming exactly the Weir packages its package.json depends on', () => {
    const actual = packages();
    const documented = packageTable();
    expect([...documented.keys()].sort()).toEqual([...actual.keys()].sort());
    for (const [name, dependencies] of actual) expect(documented.get(name), `the "depends on" of ${name}`).toEqual(dependencies);
  });
});
