import { access, rename } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { WeirError, type Logger } from '@weir/common';
import type { Committer } from '@weir/api';
import { ConnectorErrorCode } from '../../errors.ts';
import { ioError } from './part-file.ts';

/**
 * What a checkpoint promises to make visible: a rolled part file, by its full path (as Flink's
 * committables carry theirs), so a job restored with another sink directory still commits the
 * restored parts where they were written.
 */
export interface FileSinkCommittable {
  /** The absolute directory the part was written in. Committables of older checkpoints lack it: they live in the sink's directory. */
  readonly dir?: string;
  /** The hidden file as written, `.part-<subtask>-<n>.inprogress`. */
  readonly pending: string;
  /** The visible name it gets, `part-<subtask>-<n>`. */
  readonly final: string;
}

const PENDING_NAME = /^\.part-(\d+-\d+)\.inprogress$/;
const FINAL_NAME = /^part-(\d+-\d+)$/;

/**
 * Makes the parts of a completed checkpoint visible by renaming pending -> final. Idempotent,
 * as a restore commits again what the restored checkpoint promised: a part whose final file
 * exists and whose pending file is gone was committed before.
 */
export class FileSinkCommitter implements Committer<FileSinkCommittable> {
  constructor(
    private readonly dir: string,
    private readonly logger: Logger,
  ) {}

  async commit(committables: readonly FileSinkCommittable[]): Promise<void> {
    for (const committable of committables) await this.#commitOne(requireCommittable(committable));
  }

  async #commitOne({ dir = this.dir, pending, final }: FileSinkCommittable): Promise<void> {
    const pendingPath = join(dir, pending);
    const finalPath = join(dir, final);
    if (await exists(pendingPath)) {
      try {
        await rename(pendingPath, finalPath);
      } catch (err) {
        throw ioError(`cannot commit part file ${pendingPath} as ${finalPath}`, err);
      }
      this.logger.info({ file: finalPath }, 'part file committed');
      return;
    }
    if (await exists(finalPath)) {
      this.logger.info({ file: finalPath }, 'part file already committed');
      return;
    }
    throw new WeirError(
      ConnectorErrorCode.LOST_PART_FILE,
      `cannot commit part file ${finalPath}: neither it nor its pending file ${pendingPath} exists; ` +
        'the pending file was deleted, or the sink directory is not shared by every TaskManager (it must be)',
    );
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** Committables come back from a checkpoint: only names of Weir's own parts are renamed, in an absolute directory. */
function requireCommittable(committable: unknown): FileSinkCommittable {
  const { dir, pending, final } = (committable ?? {}) as Partial<FileSinkCommittable>;
  const part = typeof pending === 'string' ? PENDING_NAME.exec(pending)?.[1] : undefined;
  const dirOk = dir === undefined || dir === null || (typeof dir === 'string' && isAbsolute(dir));
  if (!dirOk || typeof pending !== 'string' || typeof final !== 'string' || part === undefined || FINAL_NAME.exec(final)?.[1] !== part) {
    throw new WeirError(
      ConnectorErrorCode.INVALID_RESTORED_STATE,
      `a FileSink committable is { dir: '<absolute directory>', pending: '.part-<subtask>-<n>.inprogress', final: 'part-<subtask>-<n>' }, got ${JSON.stringify(committable)}`,
    );
  }
  return typeof dir === 'string' ? { dir, pending, final } : { pending, final };
}
