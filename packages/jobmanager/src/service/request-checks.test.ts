import { describe, expect, it } from 'vitest';
import type { SubmitJobRequest__Output } from '@weir/rpc';
import { checkBundleHash, checkPath, checkSubmitJob } from './request-checks.ts';

const ok: SubmitJobRequest__Output = { bundle: Buffer.from('exports.default = () => {}'), entryName: 'job.js', args: ['a'], parallelism: 4, savepointPath: '', allowNonRestoredState: false, configuration: {} };

function codeOf(check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (err) {
    return (err as { code: string }).code;
  }
}

describe('request checks', () => {
  it('pass a well-formed submission', () => {
    expect(codeOf(() => checkSubmitJob(ok))).toBeUndefined();
    expect(codeOf(() => checkSubmitJob({ ...ok, entryName: '', parallelism: 0, savepointPath: 's3://bucket/savepoints/savepoint-1' }))).toBeUndefined();
    expect(codeOf(() => checkSubmitJob({ ...ok, configuration: { 'execution.checkpointing.interval': '1s' } }))).toBeUndefined();
  });

  it.each([
    ['an empty bundle', { bundle: Buffer.alloc(0) }, 'INVALID_JOB'],
    ['a bundle that is not UTF-8', { bundle: Buffer.from([0xc3, 0x28]) }, 'INVALID_JOB'],
    ['an entry name with a slash', { entryName: 'a/b.js' }, 'INVALID_REQUEST'],
    ['an entry name with a newline', { entryName: 'a\nb.js' }, 'INVALID_REQUEST'],
    ['an overlong entry name', { entryName: 'a'.repeat(256) }, 'INVALID_REQUEST'],
    ['too many args', { args: Array.from({ length: 10_001 }, () => '') }, 'INVALID_REQUEST'],
    ['a parallelism above 32768', { parallelism: 32_769 }, 'INVALID_REQUEST'],
    ['an overlong savepoint path', { savepointPath: '/'.repeat(4_097) }, 'INVALID_REQUEST'],
    ['65 configuration keys', { configuration: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, 'v'])) }, 'INVALID_REQUEST'],
    ['an overlong configuration value', { configuration: { 'state.backend': 'x'.repeat(1_025) } }, 'INVALID_REQUEST'],
    ['a configuration value with a newline', { configuration: { 'restart-strategy.type': 'none\nforged log line' } }, 'INVALID_REQUEST'],
  ])('refuse a submission with %s', (_what, change, code) => {
    expect(codeOf(() => checkSubmitJob({ ...ok, ...change }))).toBe(code);
  });

  it('refuse paths with control characters and hashes that are not SHA-256 hex', () => {
    expect(codeOf(() => checkPath('target directory', '/tmp/sp\u0000'))).toBe('INVALID_REQUEST');
    expect(codeOf(() => checkBundleHash('ab'.repeat(32)))).toBeUndefined();
    expect(codeOf(() => checkBundleHash('AB'.repeat(32)))).toBe('INVALID_REQUEST');
  });
});
