import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import type { TypeInformation } from '../types/type-information.ts';

/**
 * Names a side output (Flink's OutputTag): functions emit to it with `ctx.output(tag, value)`,
 * and `stream.getSideOutput(tag)` is the stream of those values. Tags are equal when their
 * IDs are, so a tag may be created twice with the same ID.
 */
export class OutputTag<T> {
  /** Phantom field carrying T. */
  declare readonly __type?: T;

  constructor(
    readonly id: string,
    readonly type?: TypeInformation<T>,
  ) {
    if (typeof id !== 'string' || id.length === 0) {
      throw new WeirError(ApiErrorCode.INVALID_OUTPUT_TAG, `an OutputTag needs a non-empty string ID, as in new OutputTag<string>('late'), got ${String(id)}`);
    }
  }

  /** The tag's ID. */
  getId(): string {
    return this.id;
  }

  /** `OutputTag(<id>)`. */
  toString(): string {
    return `OutputTag(${this.id})`;
  }
}

export function requireOutputTag(tag: unknown, call: string): OutputTag<unknown> {
  if (!(tag instanceof OutputTag)) {
    throw new WeirError(ApiErrorCode.INVALID_OUTPUT_TAG, `${call} takes an OutputTag, as in new OutputTag<string>('late'), got ${String(tag)}`);
  }
  return tag;
}
