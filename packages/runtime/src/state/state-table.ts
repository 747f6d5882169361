import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';
import type { KeyContext } from './key-context.ts';

/**
 * One keyed state's values: a Map per key group of this subtask (created on first write),
 * indexed by key group minus range start, keyed by the normalized key. Kept per key group
 * so a snapshot can write, and a rescale can move, whole key groups.
 */
export class StateTable<V> {
  readonly #groups: (Map<unknown, V> | undefined)[];

  constructor(
    readonly name: string,
    private readonly keys: KeyContext,
  ) {
    this.#groups = new Array<Map<unknown, V> | undefined>(keys.groupCount).fill(undefined);
  }

  get(): V | undefined {
    const group = this.#groups[this.keys.groupIndex];
    if (group === undefined) return this.#missingGroup();
    return group.get(this.keys.normalizedKey);
  }

  put(value: V): void {
    let group = this.#groups[this.keys.groupIndex];
    if (group === undefined) group = this.#createGroup();
    group.set(this.keys.normalizedKey, value);
  }

  remove(): void {
    const group = this.#groups[this.keys.groupIndex];
    if (group === undefined) this.#missingGroup();
    else group.delete(this.keys.normalizedKey);
  }

  /** Number of keys with a value in one key group (absolute key group number). */
  sizeOfKeyGroup(keyGroup: number): number {
    return this.#groups[keyGroup - this.keys.range.start]?.size ?? 0;
  }

  #missingGroup(): undefined {
    if (this.keys.groupIndex < 0) throw this.#noKey();
    return undefined;
  }

  #createGroup(): Map<unknown, V> {
    if (this.keys.groupIndex < 0) throw this.#noKey();
    const group = new Map<unknown, V>();
    this.#groups[this.keys.groupIndex] = group;
    return group;
  }

  #noKey(): WeirError {
    return new WeirError(
      RuntimeErrorCode.STATE_NO_CURRENT_KEY,
      `keyed state '${this.name}' was used outside of processing a record, so there is no current key; ` +
        `read and write keyed state in processElement (or reduce/map/filter on a KeyedStream)`,
    );
  }
}
