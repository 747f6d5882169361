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
  /**
   * A `Types` factory got something that is not a TypeInformation, a ROW without fields, an
   * empty POJO or custom type name, a custom version that is not an integer >= 1, an Avro
   * schema that avsc rejects, or a field default that its type cannot hold or store.
   */
  INVALID_TYPE: 'INVALID_TYPE',
  /**
   * The job's topology cannot run: it defines no sources, a forward edge joins operators of
   * different parallelism, streams of different environments meet, or a stream is unioned with itself.
   */
  INVALID_GRAPH: 'INVALID_GRAPH',
  /**
   * A checkpoint setting is out of range: an interval or timeout below 10 ms, a negative min
   * pause, max concurrent checkpoints below 1, tolerable failures below 0, a mode or an
   * externalized-checkpoint cleanup that is not one of CheckpointingMode / ExternalizedCheckpointCleanup.
   */
  INVALID_CHECKPOINT_CONFIG: 'INVALID_CHECKPOINT_CONFIG',
  /**
   * A state backend cannot work as given: a MemoryStateBackend size not a whole number of
   * bytes >= 1, an FsStateBackend path that is empty or of an unsupported scheme, or
   * setStateBackend() got something that is not a state backend.
   */
  INVALID_STATE_BACKEND: 'INVALID_STATE_BACKEND',
  /**
   * A RestartStrategies factory got an argument out of range, or setRestartStrategy() got
   * something that a RestartStrategies factory did not make.
   */
  INVALID_RESTART_STRATEGY: 'INVALID_RESTART_STRATEGY',
  /**
   * Restore: a state's type as the checkpoint or savepoint describes it cannot be read as the
   * type the job now declares (a changed field type or type name, a changed key type, an
   * Avro schema change that Avro's resolution rules reject).
   */
  INCOMPATIBLE_STATE_SCHEMA: 'INCOMPATIBLE_STATE_SCHEMA',
  /**
   * Restore: one restored value could not be migrated to the type the job now declares: it
   * does not fit the type its checkpoint described (an Avro value the saved schema cannot
   * encode), or a custom type's `migrate` threw.
   */
  STATE_MIGRATION_FAILED: 'STATE_MIGRATION_FAILED',
  /**
   * A fromElements/fromCollection reader was restored from a position outside its slice, or
   * from the states of several (or no) readers: a changed parallelism, not supported yet.
   */
  INVALID_SOURCE_STATE: 'INVALID_SOURCE_STATE',
  /** A WatermarkStrategy factory or `with...` got an argument out of range, or something that is not a strategy was given as one. */
  INVALID_WATERMARK_STRATEGY: 'INVALID_WATERMARK_STRATEGY',
  /** An OutputTag without an ID, or something that is not an OutputTag where one is taken. */
  INVALID_OUTPUT_TAG: 'INVALID_OUTPUT_TAG',
  /**
   * A window assigner, trigger or window setting out of range: a size, slide or gap <= 0, an
   * offset with |offset| >= size (slide), a negative allowed lateness, a count below 1, a
   * trigger that cannot merge on session windows.
   */
  INVALID_WINDOW: 'INVALID_WINDOW',
  /** An event-time window got a record without a timestamp: the stream has no WatermarkStrategy with a timestamp assigner. */
  MISSING_TIMESTAMP: 'MISSING_TIMESTAMP',
  /** A StateTtlConfig with a time to live below 1 ms, an unknown update type or visibility, or enableTimeToLive() without a StateTtlConfig. */
  INVALID_STATE_TTL: 'INVALID_STATE_TTL',
  /**
   * A rolling aggregation (sum, min, max, minBy, maxBy) got a field that is not a position or
   * name, or a record whose field it cannot aggregate (missing, not a number, bigint or string).
   */
  INVALID_AGGREGATION: 'INVALID_AGGREGATION',
  /**
   * Broadcast state used wrongly: broadcast() without a MapStateDescriptor, getBroadcastState
   * with a descriptor the broadcast() call did not register, or a function that is not a
   * (Keyed)BroadcastProcessFunction where one is taken.
   */
  INVALID_BROADCAST_STATE: 'INVALID_BROADCAST_STATE',
  /** AsyncDataStream got a timeout, capacity or retry strategy out of range, or a function without asyncInvoke. */
  INVALID_ASYNC_SETTINGS: 'INVALID_ASYNC_SETTINGS',
  /** An async function's input was not completed within the AsyncDataStream timeout, and its timeout() did not complete it otherwise (Flink's TimeoutException). */
  ASYNC_TIMEOUT: 'ASYNC_TIMEOUT',
} as const;
export type ApiErrorCode = (typeof ApiErrorCode)[keyof typeof ApiErrorCode];
