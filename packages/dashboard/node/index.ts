import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where `vite build` puts the dashboard: the directory the JobManager serves at `/`. One
 * level below the package like this file, whether it runs as source (node/) or compiled (dist/).
 */
export const dashboardDir = fileURLToPath(new URL('../web', import.meta.url));

/** Whether the dashboard has been built (`pnpm build` builds it). */
export function dashboardBuilt(): boolean {
  return existsSync(join(dashboardDir, 'index.html'));
}
