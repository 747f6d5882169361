import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultConfig, isWeirError } from '@weir/common';
import { AllowedPaths } from './allowed-paths.ts';

async function refusal(paths: AllowedPaths, path: string): Promise<string> {
  const error = await paths.check('savepoint path', path).then(
    () => expect.unreachable(`${path} was allowed`),
    (err: unknown) => err,
  );
  expect(isWeirError(error, 'PATH_NOT_ALLOWED')).toBe(true);
  return (error as Error).message;
}

describe('AllowedPaths', () => {
  const dir = mkdtempSync(join(tmpdir(), 'weir-allowed-'));
  const savepoints = join(dir, 'savepoints');
  const checkpoints = join(dir, 'checkpoints');
  mkdirSync(savepoints);
  mkdirSync(join(dir, 'other'));
  symlinkSync('/etc', join(savepoints, 'etc-link'));
  const paths = AllowedPaths.fromConfig({
    ...defaultConfig(),
    'state.savepoints.dir': savepoints,
    'state.checkpoints.dir': checkpoints,
    'state.savepoints.allowed-dirs': ' s3://weir/savepoints , s3://archive ',
  });

  it('takes the configured roots and what is below them, as paths or file:// URLs, existing or not', async () => {
    expect(paths.roots).toEqual([savepoints, checkpoints, 's3://weir/savepoints', 's3://archive']);
    for (const path of [savepoints, `${savepoints}/`, join(savepoints, 'savepoint-1'), join(checkpoints, 'job', 'chk-3'), pathToFileURL(join(savepoints, 'sp')).href, 's3://weir/savepoints/sp-1', 's3://archive/x/y']) {
      await expect(paths.check('savepoint path', path)).resolves.toEqual(expect.any(String));
    }
  });

  it('refuses paths outside them, with .. segments, through a symbolic link out, or in another bucket, naming the roots', async () => {
    expect(await refusal(paths, '/etc')).toBe(
      `savepoint path /etc is outside the directories this JobManager allows: ${savepoints}, ${checkpoints}, s3://weir/savepoints, s3://archive (state.savepoints.dir, state.checkpoints.dir, state.savepoints.allowed-dirs); give a path below one of them`,
    );
    for (const path of [
      join(dir, 'other'),
      `${savepoints}/../other`,
      `${savepoints}-evil`,
      join(savepoints, 'etc-link'),
      join(savepoints, 'etc-link', 'passwd'),
      'file:///etc/passwd',
      's3://weir/savepoints/../checkpoints',
      's3://weir/savepoints-2',
      's3://weir',
      's3://other/savepoints',
      'relative/path',
    ]) {
      await refusal(paths, path);
    }
  });

  it('returns the path to use with its links resolved, so a link swapped after the check leads nowhere else; a URL as given', async () => {
    mkdirSync(join(savepoints, 'real'));
    symlinkSync(join(savepoints, 'real'), join(savepoints, 'swapped'));
    const use = await paths.check('savepoint path', join(savepoints, 'swapped', 'sp-1'));
    expect(use).toBe(join(savepoints, 'real', 'sp-1'));
    // The attacker swaps the checked link for one to /etc: the returned path does not follow.
    unlinkSync(join(savepoints, 'swapped'));
    symlinkSync('/etc', join(savepoints, 'swapped'));
    expect(realpathSync(dirname(use))).toBe(join(savepoints, 'real'));
    expect(await paths.check('savepoint path', pathToFileURL(join(savepoints, 'real')).href)).toBe(join(savepoints, 'real'));
    expect(await paths.check('savepoint path', 's3://archive/x')).toBe('s3://archive/x');
  });

  it('allows nothing when no directory is configured, and says which key to set', async () => {
    expect(await refusal(AllowedPaths.fromConfig(defaultConfig()), '/tmp/sp')).toBe(
      'savepoint path /tmp/sp is refused: this JobManager allows no directory for savepoints or checkpoints; set state.savepoints.dir or state.checkpoints.dir (or list directories in state.savepoints.allowed-dirs) in its configuration',
    );
  });
});
