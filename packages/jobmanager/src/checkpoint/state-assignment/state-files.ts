import { levelHandleFiles, type CheckpointMetadata, type StreamStateHandle } from '@weir/common';
import { operatorLabel } from './operator-label.ts';

/** A file a checkpoint's state handles point at. */
export interface StateFileRef {
  /** `private`: relative to the directory holding `_metadata`; `shared`: relative to its parent, the job's checkpoint directory. */
  readonly location: 'private' | 'shared';
  readonly path: string;
  /** Bytes, as the handle records them. */
  readonly size: number;
  /** The operator and subtask that wrote it, for messages. */
  readonly owner: string;
}

/** Every file the checkpoint's handles reference, each once. */
export function referencedFiles(metadata: CheckpointMetadata): StateFileRef[] {
  const files = new Map<string, StateFileRef>();
  const add = (ref: StateFileRef) => {
    const key = `${ref.location}:${ref.path}`;
    if (!files.has(key)) files.set(key, ref);
  };
  for (const operator of metadata.operators) {
    operator.subtasks.forEach((state, subtask) => {
      if (state === null) return;
      const owner = `${operatorLabel(operator)} subtask ${subtask}`;
      const stream = (handle: StreamStateHandle) => {
        if (handle.kind === 'file') add({ location: 'private', path: handle.path, size: handle.size, owner });
      };
      for (const keyed of state.keyed ?? []) {
        if (keyed.backend === 'heap') stream(keyed.handle);
        else for (const file of levelHandleFiles(keyed)) add({ location: file.location, path: file.path, size: file.size, owner });
      }
      for (const handle of state.operator ?? []) stream(handle.handle);
      if (state.channel !== undefined && state.channel !== null) stream(state.channel.handle);
    });
  }
  return [...files.values()];
}

/** The size of a file, undefined when it is missing; throws when the storage cannot be asked. */
export type FileSizeProbe = (ref: StateFileRef) => Promise<number | undefined>;

/**
 * The first referenced file that is missing or (when `checkSizes`) has another size than its
 * handle records, described for a message; undefined when every one is there. Probes a few
 * files at a time.
 */
export async function findBrokenFile(refs: readonly StateFileRef[], probe: FileSizeProbe, checkSizes: boolean): Promise<string | undefined> {
  const batch = 16;
  for (let i = 0; i < refs.length; i += batch) {
    const slice = refs.slice(i, i + batch);
    const sizes = await Promise.all(slice.map(probe));
    for (let j = 0; j < slice.length; j++) {
      const ref = slice[j]!;
      const size = sizes[j];
      const name = ref.location === 'shared' ? `shared file ${ref.path}` : `file ${ref.path}`;
      if (size === undefined) return `${name} (state of ${ref.owner}) is missing`;
      if (checkSizes && size !== ref.size) return `${name} (state of ${ref.owner}) has ${size} bytes where ${ref.size} were written: it is truncated or was replaced`;
    }
  }
  return undefined;
}
