import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `vite build` puts the dashboard: the directory the JobManager serves at `/`. */
export const dashboardDir = fileURLToPath(new URL('../dist', import.meta.url));

/** Whether the dashboard has been built (`pnpm install` builds it). */
export function dashboardBuilt(): boolean {
  return existsSync(join(dashboardDir, 'index.html'));
}
