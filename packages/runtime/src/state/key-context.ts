import { canonicalJson, keyGroupForKey, WeirError, type KeyGroupRange } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';

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

  constructor(
    readonly maxParallelism: number,
    readonly range: KeyGroupRange,
    private readonly operatorLabel: string,
  ) {}

  get groupCount(): number {
    return this.range.end - this.range.start + 1;
  }

  setCurrentKey(key: unknown): void {
    const keyGroup = keyGroupForKey(key, this.maxParallelism);
    if (keyGroup < this.range.start || keyGroup > this.range.end) {
      throw new WeirError(
        RuntimeErrorCode.KEY_GROUP_OUT_OF_RANGE,
        `${this.operatorLabel} got key ${canonicalJson(key)} of key group ${keyGroup}, outside its key groups ` +
          `${this.range.start}..${this.range.end}; keyed operators must be fed by a keyBy (HASH) edge with their max parallelism`,
      );
    }
    this.key = key;
    this.normalizedKey = normalizeKey(key);
    this.groupIndex = keyGroup - this.range.start;
  }

  /** Outside record processing (open, close) keyed state has no key to read. */
  clearCurrentKey(): void {
    this.key = undefined;
    this.normalizedKey = undefined;
    this.groupIndex = -1;
  }
}

export function normalizeKey(key: unknown): unknown {
  return typeof key === 'object' && key !== null ? `\u0000${canonicalJson(key)}` : key;
}
