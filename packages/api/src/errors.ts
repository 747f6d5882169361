/** Codes of the WeirErrors that @weir/api throws while a job builds its graph. */
export const ApiErrorCode = {
  /** A parallelism (environment, operator, sink or build default) is not an integer in 1..32768. */
  INVALID_PARALLELISM: 'INVALID_PARALLELISM',
  /** A max parallelism is not -1 (derive) or an integer in 1..32768, or is below its operator's parallelism. */
  INVALID_MAX_PARALLELISM: 'INVALID_MAX_PARALLELISM',
  /** A buffer timeout is not -1 (flush only when full), 0 (flush every record) or a positive integer of ms. */
  INVALID_BUFFER_TIMEOUT: 'INVALID_BUFFER_TIMEOUT',
  /** `.uid()` got an empty or non-string uid. */
  INVALID_UID: 'INVALID_UID',
  /** `.name()` got an empty or non-string name. */
  INVALID_NAME: 'INVALID_NAME',
  /** Two operators were given the same `.uid()`. */
  DUPLICATE_UID: 'DUPLICATE_UID',
  /** A user function, source, sink or watermark strategy is not of the shape its method takes. */
  INVALID_FUNCTION: 'INVALID_FUNCTION',
  /** A `Types` factory got something that is not a TypeInformation, or a ROW without fields. */
  INVALID_TYPE: 'INVALID_TYPE',
  /**
   * The job's topology cannot run: it defines no sources, a forward edge joins operators of
   * different parallelism, streams of different environments meet, or a stream is unioned with itself.
   */
  INVALID_GRAPH: 'INVALID_GRAPH',
} as const;
export type ApiErrorCode = (typeof ApiErrorCode)[keyof typeof ApiErrorCode];
