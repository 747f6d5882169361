import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './process.ts';

/**
 * Vitest global setup of the process tests: compiles every package (`pnpm build`, a fraction
 * of a second) before any test starts a process, so the JobManager and TaskManagers under test
 * always run the code being tested, never an older build.
 */
export default function buildBeforeProcessTests(): void {
  execFileSync(process.execPath, [join(repoRoot, 'scripts/build.mjs'), '--quiet'], { stdio: 'inherit' });
}
