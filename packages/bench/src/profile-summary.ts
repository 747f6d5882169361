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

/** The functions with the most self time in each `.cpuprofile` of `dir` and its subdirectories, as printable lines. */
export function summarizeProfiles(dir: string, top = 15): string[] {
  const lines: string[] = [];
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.cpuprofile'));
  for (const file of files.sort()) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const selfHits = new Map<string, number>();
    let total = 0;
    let idle = 0;
    for (const node of profile.nodes) {
      const hits = node.hitCount ?? 0;
      const { functionName, url, lineNumber } = node.callFrame;
      if (functionName === '(idle)') {
        idle += hits;
        continue;
      }
      total += hits;
      const where = url ? `${basename(url)}:${lineNumber + 1}` : '';
      const name = `${functionName || '(anonymous)'} ${where}`.trim();
      selfHits.set(name, (selfHits.get(name) ?? 0) + hits);
    }
    // Threads that mostly idled (tsx's module-loader worker) say nothing about the job.
    if (total < idle / 4) continue;
    const seconds = (profile.endTime - profile.startTime) / 1e6;
    lines.push(`  profile ${file}: ${seconds.toFixed(1)} s, ${((100 * total) / (total + idle)).toFixed(0)}% busy; share of busy time:`);
    for (const [name, hits] of [...selfHits].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      lines.push(`    ${((100 * hits) / total).toFixed(1).padStart(5)}%  ${name}`);
    }
  }
  return lines;
}
