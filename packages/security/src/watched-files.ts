import { statSync } from 'node:fs';

/** How often watched files are checked: a rotated certificate or tokens file is in use within about this long. */
export const WATCH_INTERVAL_MS = 1_000;

function signature(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
  } catch {
    return 'missing';
  }
}

/**
 * Calls `changed` when any of `paths` changes (written in place, replaced by a rename, or
 * removed). Polls their stats on an unref'd timer: fs.watch misses a file replaced by a rename
 * (how Kubernetes and cert-manager rotate secrets), and a stat per second costs nothing.
 */
export class FileWatch {
  #signatures: string[];
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly paths: readonly string[],
    changed: () => void,
    intervalMs = WATCH_INTERVAL_MS,
  ) {
    this.#signatures = paths.map(signature);
    this.#timer = setInterval(() => {
      const now = this.paths.map(signature);
      if (now.every((s, i) => s === this.#signatures[i])) return;
      this.#signatures = now;
      changed();
    }, intervalMs);
    this.#timer.unref();
  }

  close(): void {
    clearInterval(this.#timer);
  }
}
