import { describeError, WeirError, type KeyGroupRange, type StateMetaInfo } from '@weir/common';
import type { Storage } from '@weir/storage';
import { writeLevelFiles } from '../../../checkpoint/snapshot/level-files-writer.ts';
import { RuntimeErrorCode } from '../../../errors.ts';
import type { LevelBaseline } from '../baseline.ts';
import type { LevelStore } from '../level-store.ts';
import { snapshotDatabaseFiles } from '../snapshot-files.ts';
import type { StateChangelog } from './state-changelog.ts';

export interface MaterializeOptions {
  readonly store: LevelStore;
  readonly changelog: StateChangelog;
  readonly storage: Storage | undefined;
  /** A local directory of its own to link the DB's files into; removed once they are uploaded. */
  readonly directory: string;
  /** `<operatorId>-<subtask>`, before each upload's name. */
  readonly prefix: string;
  readonly keyGroupRange: KeyGroupRange;
  readonly states: Readonly<Record<string, StateMetaInfo>>;
  readonly label: string;
}

/**
 * One materialization: the DB's files as of the end of the changelog segment it closes,
 * uploaded to `shared/` except those the confirmed base already holds (the usual incremental
 * upload, snapshot-files.ts and level-files-writer.ts), then offered to the next checkpoint as
 * its base. Skipped while the last one waits for a checkpoint to confirm it.
 */
export async function materialize(options: MaterializeOptions): Promise<void> {
  const { store, changelog } = options;
  if (!store.isOpen || !changelog.canMaterialize) return;
  await store.settled();
  const baseline = changelog.baseline;
  // The dirty entries go into the DB and the changelog's open segment, which is closed at once: the files linked once the DB has them hold every change up to `upTo`.
  const files = store.writeDirtyThen(() => snapshotDatabaseFiles(store.directory, options.directory, baseline));
  files.catch(() => undefined);
  const upTo = changelog.closeSegment();
  let shared: LevelBaseline = new Map();
  try {
    const written = await writeLevelFiles(
      { storage: options.storage },
      { storage: options.storage, prefix: '', inline: false, what: 'a materialization' },
      options.prefix,
      {
        kind: 'level-files',
        keyGroupRange: options.keyGroupRange,
        states: options.states,
        directory: options.directory,
        files,
        confirmed: baseline,
        baseCheckpointId: 0,
        uploaded: (uploads) => {
          shared = uploads;
        },
        everyFileShared: true,
      },
      `keyed state of ${options.label}`,
    );
    changelog.materialized({ files: written.handle.files, upTo, baseline: shared, uploadedBytes: written.uploadedBytes });
  } catch (err) {
    throw new WeirError(RuntimeErrorCode.LEVEL_STATE_FAILED, `materializing the LevelDB state of ${options.label} failed: ${describeError(err)}`, { cause: err });
  }
}
