import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * What tells one process from any other on this host, now and after its PID is reused: a PID
 * alone is not enough, the kernel hands it out again. With the process's start time (clock
 * ticks since boot, /proc/<pid>/stat) and the boot ID, a PID that belongs to another process
 * now, or to a process of an earlier boot, is recognized as not the owner's.
 */
export interface ProcessIdentity {
  readonly hostname: string;
  readonly pid: number;
  /** Field 22 of /proc/<pid>/stat; undefined where there is no /proc (not Linux). */
  readonly startTicks: number | undefined;
  /** /proc/sys/kernel/random/boot_id; undefined where there is none. */
  readonly bootId: string | undefined;
}

/** Reads /proc of this host; tests substitute their own. */
export interface ProcessTable {
  readonly hostname: string;
  readonly bootId: string | undefined;
  /** Undefined when there is no such process (or no /proc to tell). */
  startTicks(pid: number): number | undefined;
  /** Whether a process with this PID exists, whoever it is. */
  exists(pid: number): boolean;
}

export const hostProcessTable: ProcessTable = {
  hostname: hostname(),
  bootId: readOptional('/proc/sys/kernel/random/boot_id')?.trim(),
  startTicks(pid) {
    const stat = readOptional(`/proc/${pid}/stat`);
    if (stat === undefined) return undefined;
    // The command name (field 2) is in parentheses and may itself hold spaces and ')': fields 3.. follow the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[22 - 3]);
    return Number.isSafeInteger(ticks) ? ticks : undefined;
  },
  exists(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (err) {
      // EPERM: it exists, as another user's.
      return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
};

export function ownIdentity(table: ProcessTable = hostProcessTable): ProcessIdentity {
  return { hostname: table.hostname, pid: process.pid, startTicks: table.startTicks(process.pid), bootId: table.bootId };
}

/**
 * Whether the process `owner` names is surely gone. Only a process of this host can be judged:
 * another host's (a localdir on a shared volume) counts as alive. Without /proc a process that
 * exists under the PID counts as the owner.
 */
export function isGone(owner: ProcessIdentity, table: ProcessTable = hostProcessTable): boolean {
  if (owner.hostname !== table.hostname) return false;
  if (owner.bootId !== undefined && table.bootId !== undefined && owner.bootId !== table.bootId) return true;
  if (!table.exists(owner.pid)) return true;
  if (owner.startTicks === undefined) return false;
  const now = table.startTicks(owner.pid);
  // The PID exists but /proc no longer answers for it: it just ended, or /proc is not readable; keep it.
  return now !== undefined && now !== owner.startTicks;
}

export function decodeIdentity(text: string): ProcessIdentity | undefined {
  try {
    const parsed = JSON.parse(text) as Partial<ProcessIdentity>;
    if (typeof parsed.hostname !== 'string' || !Number.isSafeInteger(parsed.pid)) return undefined;
    return {
      hostname: parsed.hostname,
      pid: parsed.pid!,
      startTicks: typeof parsed.startTicks === 'number' ? parsed.startTicks : undefined,
      bootId: typeof parsed.bootId === 'string' ? parsed.bootId : undefined,
    };
  } catch {
    return undefined;
  }
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
