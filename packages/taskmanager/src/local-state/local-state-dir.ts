import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeError, type Logger } from '@weir/common';
import { decodeIdentity, hostProcessTable, isGone, ownIdentity, type ProcessTable } from './process-identity.ts';

const PREFIX = 'weir-';
const OWNER_SUFFIX = '.owner';

export interface LocalStateDirOptions {
  /** state.backend.rocksdb.localdir, or the OS temp dir when it is empty; several TaskManagers may share it. */
  readonly root: string;
  readonly taskManagerId: string;
  readonly logger: Logger;
  readonly processes?: ProcessTable;
}

/**
 * A TaskManager's own directory for LevelDB state, `<root>/weir-<taskmanager id>-<random>`,
 * beside an owner file `<directory>.owner` naming the process (host, PID, start time, boot
 * ID: process-identity.ts). The owner file is written before the directory exists and removed
 * after it is gone, so every directory of this layout has one. A TaskManager that starts
 * removes the directories whose owner is gone (SIGKILLed, crashed, the host rebooted) and
 * never one whose owner still runs, even under a reused PID; a TaskManager that stops removes
 * its own. The random part keeps two live processes with the same resource-id apart.
 */
export class LocalStateDir {
  private constructor(
    readonly directory: string,
    private readonly options: LocalStateDirOptions,
  ) {}

  /**
   * Writes the owner file and creates the directory. A root that cannot take them is logged,
   * not thrown: a TaskManager without LevelDB jobs runs on, and a task that needs the directory
   * fails with LOCAL_STATE_DIR_UNUSABLE as before.
   */
  static async claim(options: LocalStateDirOptions): Promise<LocalStateDir> {
    const name = `${PREFIX}${options.taskManagerId.replace(/[^A-Za-z0-9._-]/g, '_')}-${randomBytes(3).toString('hex')}`;
    const dir = new LocalStateDir(join(options.root, name), options);
    const owner = `${dir.directory}${OWNER_SUFFIX}`;
    try {
      await mkdir(options.root, { recursive: true });
      // Renamed into place, so a sweep never reads half an owner file.
      const staging = `${owner}.${process.pid}.tmp`;
      await writeFile(staging, JSON.stringify({ taskManagerId: options.taskManagerId, ...ownIdentity(options.processes ?? hostProcessTable) }));
      await rename(staging, owner);
      await mkdir(dir.directory);
    } catch (err) {
      options.logger.warn({ err: describeError(err), directory: dir.directory }, 'cannot set up the local state directory; tasks with LevelDB state will fail');
    }
    return dir;
  }

  /** Removes the directories below the root whose owner is gone; returns them. Best effort: failures are logged. */
  async sweep(): Promise<string[]> {
    const { root, logger } = this.options;
    const processes = this.options.processes ?? hostProcessTable;
    let names: string[];
    try {
      names = await readdir(root);
    } catch (err) {
      logger.warn({ err: describeError(err), root }, 'cannot list the local state root for directories of TaskManagers that are gone');
      return [];
    }
    const removed: string[] = [];
    for (const name of names) {
      if (!name.startsWith(PREFIX) || !name.endsWith(OWNER_SUFFIX)) continue;
      const directory = join(root, name.slice(0, -OWNER_SUFFIX.length));
      if (directory === this.directory) continue;
      try {
        // An owner file that does not parse is not one this layout writes: leave it and its directory alone.
        const owner = decodeIdentity(await readFile(join(root, name), 'utf8'));
        if (owner === undefined || !isGone(owner, processes)) continue;
        await rm(directory, { recursive: true, force: true, maxRetries: 3 });
        await rm(join(root, name), { force: true });
        removed.push(directory);
        logger.info({ directory, ownerPid: owner.pid }, 'removed the local state directory of a TaskManager that is gone');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // another TaskManager swept it first
        logger.warn({ err: describeError(err), directory }, 'cannot remove the local state directory of a TaskManager that is gone');
      }
    }
    return removed;
  }

  /** The TaskManager stops (its tasks have ended): the directory, then the owner file. */
  async release(): Promise<void> {
    try {
      await rm(this.directory, { recursive: true, force: true, maxRetries: 3 });
      await rm(`${this.directory}${OWNER_SUFFIX}`, { force: true });
    } catch (err) {
      this.options.logger.warn({ err: describeError(err), directory: this.directory }, 'cannot remove the local state directory');
    }
  }
}
