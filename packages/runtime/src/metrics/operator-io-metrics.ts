import { MeterView, type Counter } from '@weir/api';
import { WeirError } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';
import type { OperatorMetrics } from './operator-metric-group.ts';

/** Where an operator's built-in figures are read: the counts its input and output keep. */
export interface OperatorIO {
  numRecordsIn(): number;
  numRecordsOut(): number;
  /** ms since the epoch; -Infinity before the first watermark. */
  currentInputWatermark(): number;
  currentOutputWatermark(): number;
}

/**
 * Flink's built-in operator metrics (OperatorIOMetricGroup): numRecordsIn, numRecordsOut, their
 * rates per second (MeterViews over the counts, Flink's 60 s span) and the operator's input and
 * output watermarks. The counts are read from the chain's own fields, never copied per record.
 */
export function registerOperatorIO(metrics: OperatorMetrics, io: OperatorIO): void {
  const group = metrics.group;
  const recordsIn = group.counter('numRecordsIn', countView(io.numRecordsIn));
  const recordsOut = group.counter('numRecordsOut', countView(io.numRecordsOut));
  group.meter('numRecordsInPerSecond', new MeterView(recordsIn));
  group.meter('numRecordsOutPerSecond', new MeterView(recordsOut));
  group.gauge('currentInputWatermark', io.currentInputWatermark);
  group.gauge('currentOutputWatermark', io.currentOutputWatermark);
}

/** A counter whose count is kept elsewhere (a field the chain increments): only read. */
function countView(read: () => number): Counter {
  const readOnly = (): never => {
    throw new WeirError(RuntimeErrorCode.METRIC_READ_ONLY, "the operator's built-in record counts are kept by the runtime; register a counter of your own");
  };
  return { inc: readOnly, dec: readOnly, getCount: read };
}
