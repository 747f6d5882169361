import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Prefix of every instance's temp directory (server.ts makes them). */
export const BASE_DIR_PREFIX = 'weir-postgres-';
/** The pid of the Node process that started the instance, written in its temp directory. */
const OWNER_FILE = 'owner.pid';

/** Records this process as the owner of the instance in `baseDir`, for sweepOrphans. */
export function claimOwnership(baseDir: string): void {
  writeFileSync(join(baseDir, OWNER_FILE), `${process.pid}\n`);
}

/**
 * Stops and removes the instances whose owner is gone. A test runner that is SIGKILLed (a
 * timed-out CI step, an aborted run) never runs its exit hook, and its servers went on running
 * for hours; the next start of any instance on the machine ends them. An instance is touched
 * only when its directory names an owner that no longer exists and its postmaster's command
 * line names that directory, so a reused pid never takes another's process down.
 */
export function sweepOrphans(): number {
  let swept = 0;
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(BASE_DIR_PREFIX)) continue;
    const baseDir = join(tmpdir(), name);
    const owner = readPid(join(baseDir, OWNER_FILE));
    if (owner === undefined || alive(owner)) continue;
    const postmaster = readPid(join(baseDir, 'data', 'postmaster.pid'));
    if (postmaster !== undefined && commandLine(postmaster).includes(baseDir)) {
      try {
        // Its own process group (server.ts starts it detached): the backends go with it.
        process.kill(-postmaster, 'SIGKILL');
      } catch {
        // Gone in between.
      }
    }
    rmSync(baseDir, { recursive: true, force: true });
    swept++;
  }
  return swept;
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, as another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}
