export const KafkaBrokerErrorCode = {
  /** Maven could not resolve the broker's jars. */
  JARS_UNAVAILABLE: 'JARS_UNAVAILABLE',
  /** No `java` on the PATH. */
  NO_JAVA: 'NO_JAVA',
  /** The broker process exited or did not answer in time. */
  BROKER_START_FAILED: 'BROKER_START_FAILED',
} as const;
export type KafkaBrokerErrorCode = (typeof KafkaBrokerErrorCode)[keyof typeof KafkaBrokerErrorCode];
