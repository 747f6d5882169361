export { PASSWORD_USER, POSTGRES_BIN_DIR, PostgresServer, postgresAvailable, type PostgresServerOptions } from './server.ts';
export { PostgresServerErrorCode } from './errors.ts';
