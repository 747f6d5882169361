import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../../errors.ts';

export const DEFAULT_MAX_PART_SIZE = 128 * 1024 * 1024;

/** When a FileSink closes its in-progress part file and starts the next (Flink's DefaultRollingPolicy, by size). */
export class DefaultRollingPolicy {
  private constructor(readonly maxPartSize: number) {}

  /** Flink's DefaultRollingPolicy.builder(): a policy rolling part files by size. */
  static builder(): DefaultRollingPolicyBuilder {
    return new DefaultRollingPolicyBuilder((maxPartSize) => new DefaultRollingPolicy(maxPartSize));
  }

  /** Rolls once the part has reached the size limit, so a part ends at most one record past it. */
  shouldRollOnEvent(partSize: number): boolean {
    return partSize >= this.maxPartSize;
  }
}

/** Builds a DefaultRollingPolicy (Flink's DefaultRollingPolicy.PolicyBuilder; only the part size is supported). */
export class DefaultRollingPolicyBuilder {
  #maxPartSize = DEFAULT_MAX_PART_SIZE;

  constructor(private readonly create: (maxPartSize: number) => DefaultRollingPolicy) {}

  /** Flink's withMaxPartSize: a part file rolls once it holds this many bytes. */
  withMaxPartSize(bytes: number): this {
    if (!Number.isSafeInteger(bytes) || bytes < 1) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `withMaxPartSize() needs a whole number of bytes >= 1, got ${bytes}`);
    }
    this.#maxPartSize = bytes;
    return this;
  }

  /** The DefaultRollingPolicy. */
  build(): DefaultRollingPolicy {
    return this.create(this.#maxPartSize);
  }
}
