import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The lines of every committed part file under a FileSink output directory, in file-name
 * order. In-progress and pending files are hidden (their names start with '.'), so they
 * are skipped, in subdirectories (buckets) too.
 */
export function readCommittedLines(dir: string): string[] {
  const lines: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) lines.push(...readCommittedLines(path));
    else if (entry.isFile()) lines.push(...readFileSync(path, 'utf8').split('\n').filter((line) => line.length > 0));
  }
  return lines;
}
