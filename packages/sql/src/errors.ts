import { WeirError } from '@weir/common';

/** Codes of the WeirErrors that @weir/sql throws, all before anything is submitted. */
export const SqlErrorCode = {
  /** The statement does not parse; the message has the line, column and what was expected. */
  SQL_PARSE_ERROR: 'SQL_PARSE_ERROR',
  /** A table or view that the catalog does not have; the message suggests the nearest name. */
  SQL_UNKNOWN_TABLE: 'SQL_UNKNOWN_TABLE',
  /** A column that no table in scope has; the message suggests the nearest name. */
  SQL_UNKNOWN_COLUMN: 'SQL_UNKNOWN_COLUMN',
  /** A function that Weir's SQL does not have; the message suggests the nearest name. */
  SQL_UNKNOWN_FUNCTION: 'SQL_UNKNOWN_FUNCTION',
  /** Operand types that an operator, function or sink does not accept. */
  SQL_TYPE_MISMATCH: 'SQL_TYPE_MISMATCH',
  /** A table or view of that name exists already. */
  SQL_TABLE_EXISTS: 'SQL_TABLE_EXISTS',
  /** An updating query into a sink that only takes appends (insert-only). */
  SQL_UPDATES_NOT_ACCEPTED: 'SQL_UPDATES_NOT_ACCEPTED',
  /** A window table-valued function over a column that is not an event-time attribute. */
  SQL_NOT_A_TIME_ATTRIBUTE: 'SQL_NOT_A_TIME_ATTRIBUTE',
  /** WITH options that the connector or format does not accept (unknown connector, missing or bad option). */
  SQL_INVALID_OPTION: 'SQL_INVALID_OPTION',
  /** A query Flink refuses as well: a ROW_NUMBER() OVER without ORDER BY, UNION ALL of inputs that do not line up. */
  SQL_INVALID_QUERY: 'SQL_INVALID_QUERY',
  /** Valid Flink SQL that this version of Weir's SQL does not run yet; the message says what is missing. */
  SQL_UNSUPPORTED: 'SQL_UNSUPPORTED',
  /** A value that cannot be converted at run time (a CAST of 'abc' to INT, a malformed CSV line). */
  SQL_INVALID_VALUE: 'SQL_INVALID_VALUE',
} as const;

/** Where in the statement text something is: 1-based line and column, as Flink's SQL errors say. */
export interface SqlPosition {
  readonly line: number;
  readonly column: number;
}

/** A SQL error at a place in the statement: the message starts with "SQL error at line L, column C". */
export class SqlError extends WeirError {
  constructor(
    code: string,
    message: string,
    readonly position?: SqlPosition,
  ) {
    super(code, position === undefined ? message : `SQL error at line ${position.line}, column ${position.column}: ${message}`);
    this.name = 'SqlError';
  }
}
