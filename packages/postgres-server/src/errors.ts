export const PostgresServerErrorCode = {
  /** PostgreSQL 15's binaries (initdb, postgres) are not where Debian puts them, or there is no `postgres` user to run them as. */
  NO_POSTGRES: 'NO_POSTGRES',
  /** initdb failed, or the server exited or did not accept connections in time. */
  SERVER_START_FAILED: 'SERVER_START_FAILED',
  /** A psql command against the instance failed. */
  PSQL_FAILED: 'PSQL_FAILED',
} as const;
export type PostgresServerErrorCode = (typeof PostgresServerErrorCode)[keyof typeof PostgresServerErrorCode];
