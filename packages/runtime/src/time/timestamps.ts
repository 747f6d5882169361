import type { TimestampAssigner, WatermarkGeneratorSupplierContext } from '@weir/api';
import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';
import type { FailureWrapper } from '../operators/operator-failure.ts';
import type { ProcessingTimeService } from './processing-time-service.ts';

/** What watermark generators are made with: the task's processing time measures idleness. */
export function generatorContext(processingTime: ProcessingTimeService): WatermarkGeneratorSupplierContext {
  const clock = { relativeTimeMillis: () => processingTime.currentProcessingTime() };
  return { getInputActivityClock: () => clock };
}

/**
 * A record's event time from the user's assigner, checked: a number (not NaN). Undefined
 * passes only when the strategy has no assigner and the source gave none: the record then
 * has no timestamp.
 */
export function extractTimestamp(
  assigner: TimestampAssigner<unknown>,
  assigned: boolean,
  record: unknown,
  recordTimestamp: number | undefined,
  failures: FailureWrapper,
): number | undefined {
  let timestamp: number | undefined;
  try {
    timestamp = assigner.extractTimestamp(record, recordTimestamp);
  } catch (err) {
    throw failures.wrap(err);
  }
  if (typeof timestamp === 'number' && !Number.isNaN(timestamp)) return timestamp;
  if (timestamp === undefined && !assigned) return undefined;
  throw failures.wrap(
    new WeirError(
      RuntimeErrorCode.INVALID_TIMESTAMP,
      `the timestamp assigner returned ${String(timestamp)} for a record; it must return the record's event time in milliseconds (a number)`,
    ),
  );
}
