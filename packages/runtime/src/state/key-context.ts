import { canonicalJson, keyGroupForKey, WeirError, type KeyGroupRange } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';
import { joinNamespacedKey, keyId } from './namespaced-key.ts';

/**
 * The key of the record being processed, as keyed state needs it: its key group's index
 * within this subtask's range, and the key normalized for Map lookups (primitives as they
 * are; arrays and objects as canonical JSON behind a NUL, so they never equal a string key).
 */
export class KeyContext {
  key: unknown = undefined;
  normalizedKey: unknown = undefined;
  /** Key group minus range start; -1 while no record is being processed. */
  groupIndex = -1;
  /**
   * The namespace of namespaced states (a window's): their values are kept per (key,
   * namespace), in the key's key group, so they snapshot, restore and rescale with the key
   * like any keyed state.
   */
  namespace = '';
  #composite = '';
  #compositeOf: unknown = undefined;
  #compositeIn: string | undefined = undefined;
  #keyId: string | undefined;

  constructor(
    readonly maxParallelism: number,
    readonly range: KeyGroupRange,
    private readonly operatorLabel: string,
  ) {}

  get groupCount(): number {
    return this.range.end - this.range.start + 1;
  }

  setCurrentKey(key: unknown): void {
    this.setCurrentKeyInGroup(key, keyGroupForKey(key, this.maxParallelism));
  }

  /** The key and its key group, as the producer routed the record by it: no second hash. */
  setCurrentKeyInGroup(key: unknown, keyGroup: number): void {
    if (keyGroup < this.range.start || keyGroup > this.range.end) {
      throw new WeirError(
        RuntimeErrorCode.KEY_GROUP_OUT_OF_RANGE,
        `${this.operatorLabel} got key ${canonicalJson(key)} of key group ${keyGroup}, outside its key groups ` +
          `${this.range.start}..${this.range.end}; keyed operators must be fed by a keyBy (HASH) edge with their max parallelism`,
      );
    }
    this.key = key;
    this.normalizedKey = normalizeKey(key);
    this.#keyId = undefined;
    this.groupIndex = keyGroup - this.range.start;
  }

  /** The current key as a string unique per key (keyId of the normalized key), built once per key set. */
  get keyId(): string {
    return (this.#keyId ??= keyId(this.normalizedKey));
  }

  /** The current (namespace, key) as one string (namespaced-key.ts), built once per (key, namespace): LevelDB's key of a namespaced state's entry. */
  get namespacedKey(): string {
    const key = this.normalizedKey;
    const namespace = this.namespace;
    if (key !== this.#compositeOf || namespace !== this.#compositeIn) {
      this.#composite = joinNamespacedKey(namespace, this.keyId);
      this.#compositeOf = key;
      this.#compositeIn = namespace;
    }
    return this.#composite;
  }

  /** Outside record processing (open, close) keyed state has no key to read. */
  clearCurrentKey(): void {
    this.key = undefined;
    this.normalizedKey = undefined;
    this.#keyId = undefined;
    this.groupIndex = -1;
  }
}

export function normalizeKey(key: unknown): unknown {
  return typeof key === 'object' && key !== null ? `\u0000${canonicalJson(key)}` : key;
}
