import { describe, expect, it } from 'vitest';
import { isWeirError } from './errors.ts';
import { isJobId, parseJobId, quoteInput } from './job-id.ts';

describe('job IDs', () => {
  it('accepts 32 hex digits in either case and nothing else', () => {
    expect(['0123456789abcdef0123456789ABCDEF', 'f'.repeat(32)].map(isJobId)).toEqual([true, true]);
    expect(['f'.repeat(31), 'f'.repeat(33), 'g'.repeat(32), '/tmp/savepoints', 's3://bucket/savepoints', ''].map(isJobId)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('parses to lower case, and refuses anything else with INVALID_JOB_ID quoting a bounded part of it', () => {
    expect(parseJobId('0123456789ABCDEF0123456789abcdef')).toBe('0123456789abcdef0123456789abcdef');
    const err = (() => {
      try {
        return parseJobId('x'.repeat(1 << 20));
      } catch (e) {
        return e;
      }
    })();
    expect(isWeirError(err, 'INVALID_JOB_ID')).toBe(true);
    expect((err as Error).message).toBe(`'${'x'.repeat(64)}…' (1048576 characters) is not a job ID: a job ID is 32 hex digits, as \`weir list\` shows them`);
  });

  it('quotes short input whole', () => {
    expect(quoteInput('abc')).toBe("'abc'");
    expect(quoteInput('abcdef', 3)).toBe("'abc…' (6 characters)");
  });
});
