import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly hitCount?: number;
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
}

/** The functions with the most self time in each `.cpuprofile` of `dir`, as printable lines. */
export function summarizeProfiles(dir: string, top = 15): string[] {
  const lines: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const selfHits = new Map<string, number>();
    let total = 0;
    for (const node of profile.nodes) {
      const hits = node.hitCount ?? 0;
      total += hits;
      const { functionName, url, lineNumber } = node.callFrame;
      const where = url ? `${basename(url)}:${lineNumber + 1}` : '';
      const name = `${functionName || '(anonymous)'} ${where}`.trim();
      selfHits.set(name, (selfHits.get(name) ?? 0) + hits);
    }
    lines.push(`  profile ${file} (${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s):`);
    for (const [name, hits] of [...selfHits].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      lines.push(`    ${((100 * hits) / total).toFixed(1).padStart(5)}%  ${name}`);
    }
  }
  return lines;
}
