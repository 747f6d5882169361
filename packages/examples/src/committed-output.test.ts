import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCommittedLines } from './committed-output.ts';

describe('readCommittedLines', () => {
  it('reads visible part files, in buckets too, and skips hidden in-progress files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-sink-'));
    writeFileSync(join(dir, 'part-0-0'), 'a 1\nb 1\n');
    writeFileSync(join(dir, 'part-1-0'), 'c 1\n\n');
    writeFileSync(join(dir, '.part-1-1.inprogress'), 'd 1\n');
    mkdirSync(join(dir, '2025-01-01--10'));
    writeFileSync(join(dir, '2025-01-01--10', 'part-0-1'), 'e 1');
    expect(readCommittedLines(dir)).toEqual(['e 1', 'a 1', 'b 1', 'c 1']);
  });
});
