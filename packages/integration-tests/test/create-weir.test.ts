import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { WEIR_API_VERSION } from '@weir/api';
import { repoRoot } from '../src/index.ts';

/*
 * Issue 26, `npm create weir <dir>`: create-weir's bin (what npm runs) writes the same project
 * as `weir init <dir>`, through the weir command it depends on. The packed tarball is checked
 * by user-project.test.ts (pnpm pack:all makes create-weir-<version>.tgz).
 */
describe('create-weir', () => {
  const root = mkdtempSync(join(tmpdir(), 'weir-create-'));
  const bin = join(repoRoot, 'packages', 'create-weir', 'bin', 'create-weir.js');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('writes the weir init project, with Weir versions a cluster of this version accepts', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [bin, join(root, 'my-app')], { cwd: root });
    expect(stdout).toContain(`Wrote a Weir project to ${join(root, 'my-app')}`);
    const manifest = JSON.parse(readFileSync(join(root, 'my-app', 'package.json'), 'utf8'));
    expect(manifest.name).toBe('my-app');
    expect(manifest.dependencies).toEqual({ '@weir/api': `^${WEIR_API_VERSION}`, '@weir/connectors': `^${WEIR_API_VERSION}` });
    expect(readFileSync(join(root, 'my-app', 'src', 'job.ts'), 'utf8')).toContain('export default function job');
  });

  it('passes weir init its errors and exit code, and prints its usage without a directory', async () => {
    const failed = await promisify(execFile)(process.execPath, [bin, join(root, 'my-app')], { cwd: root }).catch((err: { code: number; stderr: string }) => err);
    expect(failed).toMatchObject({ code: expect.any(Number), stderr: expect.stringContaining('is not empty') });
    const usage = await promisify(execFile)(process.execPath, [bin], { cwd: root }).catch((err: { code: number; stdout: string }) => err);
    expect(usage).toMatchObject({ code: 1, stdout: expect.stringContaining('usage: npm create weir <dir>') });
  });
});
