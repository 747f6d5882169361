/** What each built-in operator metric means (Flink's operator scope): the help text of its Prometheus series. */
export const OPERATOR_METRIC_HELP = {
  numRecordsIn: 'Records this operator has received.',
  numRecordsOut: 'Records this operator has emitted.',
  numRecordsInPerSecond: 'Records received per second, over the last 60 s.',
  numRecordsOutPerSecond: 'Records emitted per second, over the last 60 s.',
  currentInputWatermark: 'The last watermark this operator received (ms since the epoch); -Inf before the first.',
  currentOutputWatermark: 'The last watermark this operator emitted (ms since the epoch); -Inf before the first.',
} as const;

/** The help text of an operator metric's series: a built-in one's meaning, or that a user function registered it. */
export function operatorMetricHelp(name: string): string {
  return Object.hasOwn(OPERATOR_METRIC_HELP, name) ? OPERATOR_METRIC_HELP[name as keyof typeof OPERATOR_METRIC_HELP] : `Operator metric '${name}' registered by a user function.`;
}
