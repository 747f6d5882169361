/** Codes of the errors @weir/metrics throws. */
export const MetricsErrorCode = {
  /** metrics.reporter.prom.port: no port of the range could be bound (all in use, or no permission). */
  METRICS_PORT_UNAVAILABLE: 'METRICS_PORT_UNAVAILABLE',
} as const;
