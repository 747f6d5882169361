import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typecheckJob } from './typecheck.ts';

// A TypeScript program parses the standard library's declarations first: seconds on a loaded machine.
const TSC_TIMEOUT_MS = 120_000;

describe('weir run --typecheck', () => {
  it('names file, line and column of each type error, relative to the working directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-typecheck-'));
    writeFileSync(join(dir, 'job.ts'), 'const n: number = 1;\nexport const s: string = n;\n');
    expect(() => typecheckJob(join(dir, 'job.ts'), dir)).toThrow(
      expect.objectContaining({ code: 'TYPE_ERRORS', message: expect.stringContaining("job.ts:2:14: error TS2322: Type 'number' is not assignable to type 'string'") }),
    );
  }, TSC_TIMEOUT_MS);
});
