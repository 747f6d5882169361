export { SqlError, SqlErrorCode, type SqlPosition } from './errors.ts';
export { StreamTableEnvironment, Table, TableResult, StatementSet } from './table-environment.ts';
export { TableConfig } from './table-config.ts';
export { rowToString, type Row, type RowKind } from './row.ts';
export { parseStatements } from './parse/parser.ts';
export type { SqlType } from './validate/types.ts';
export { typeToString } from './validate/types.ts';
export { NEXMARK_QUERIES, NEXMARK_VIEWS, nexmarkDdl, nexmarkSelect } from './nexmark/queries.ts';
export { ScalarFunction, registerFunctionClass, type ScalarFunctionClass } from './functions/scalar-function.ts';
