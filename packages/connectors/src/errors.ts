/** Codes of the WeirErrors that @weir/connectors throws. */
export const ConnectorErrorCode = {
  /** A source or sink was built with an argument out of range (count, rate, path, part size, function). */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** The path of a FileSource does not exist when its reader starts. */
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
  /** Reading, writing or renaming a file failed; the message names the file, the cause is attached. */
  IO_ERROR: 'IO_ERROR',
  /** A restored split or enumerator state does not fit the source (a generator with another count, a malformed file split). */
  INVALID_POSITION: 'INVALID_POSITION',
  /** A FileSink writer state or committable from a checkpoint is not of the shape a FileSink writes. */
  INVALID_RESTORED_STATE: 'INVALID_RESTORED_STATE',
  /**
   * A FileSink committer found neither the pending nor the final file of a part it must commit:
   * the hidden pending file was deleted, or the output directory is not shared by all TaskManagers.
   */
  LOST_PART_FILE: 'LOST_PART_FILE',
  /** No Kafka broker of bootstrap.servers answered; the message names the addresses. */
  KAFKA_UNREACHABLE: 'KAFKA_UNREACHABLE',
  /** A topic a KafkaSource reads or a KafkaSink writes does not exist. */
  KAFKA_TOPIC_NOT_FOUND: 'KAFKA_TOPIC_NOT_FOUND',
  /** A Kafka record could not be deserialized; the message names topic, partition and offset. */
  KAFKA_DESERIALIZATION_FAILED: 'KAFKA_DESERIALIZATION_FAILED',
  /**
   * A transaction a completed checkpoint promised could not be committed: the broker aborted it
   * (transaction.timeout.ms passed) or another producer fenced it. No restart can bring its
   * records back, so the job fails.
   */
  KAFKA_TRANSACTION_ABORTED: 'KAFKA_TRANSACTION_ABORTED',
  /** A KafkaSink producer was fenced while writing: two jobs (or sinks) share a transactional id prefix, or the broker timed the transaction out. */
  KAFKA_PRODUCER_FENCED: 'KAFKA_PRODUCER_FENCED',
  /**
   * An EXACTLY_ONCE KafkaSink's transaction.timeout.ms is above the brokers'
   * transaction.max.timeout.ms: every attempt would be refused alike, so the job fails at once.
   */
  KAFKA_TRANSACTION_TIMEOUT_TOO_LONG: 'KAFKA_TRANSACTION_TIMEOUT_TOO_LONG',
  /** Kafka answered a request with an error not covered above; the message has Kafka's error name. */
  KAFKA_ERROR: 'KAFKA_ERROR',
  /** No PostgreSQL server answered at hostname:port (refused, timed out, or it closed the connection). */
  POSTGRES_UNREACHABLE: 'POSTGRES_UNREACHABLE',
  /** PostgreSQL refused the login: wrong password, unknown role, or no pg_hba.conf entry. */
  POSTGRES_AUTH_FAILED: 'POSTGRES_AUTH_FAILED',
  /** A database or table the connector reads or writes does not exist. */
  POSTGRES_TABLE_NOT_FOUND: 'POSTGRES_TABLE_NOT_FOUND',
  /**
   * The server is not set up for what the connector needs: wal_level is not logical (CDC),
   * max_prepared_transactions is 0 (the exactly-once sink), no free replication slot or WAL sender.
   */
  POSTGRES_NOT_CONFIGURED: 'POSTGRES_NOT_CONFIGURED',
  /** A record violates a constraint of the sink's table; the message names the table, the constraint and the record's key. */
  POSTGRES_CONSTRAINT_VIOLATION: 'POSTGRES_CONSTRAINT_VIOLATION',
  /** A prepared transaction a completed checkpoint promised was rolled back (by hand, or by another job of the same prefix): its rows are lost. */
  POSTGRES_TRANSACTION_LOST: 'POSTGRES_TRANSACTION_LOST',
  /** PostgreSQL answered with an error not covered above; the message has its SQLSTATE and text. */
  POSTGRES_ERROR: 'POSTGRES_ERROR',
} as const;
export type ConnectorErrorCode = (typeof ConnectorErrorCode)[keyof typeof ConnectorErrorCode];
