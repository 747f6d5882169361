import { WeirFlinkSQL } from './flink-sql.ts';
import { SqlError, SqlErrorCode } from '../errors.ts';
import type { Statement } from './ast.ts';
import { rewriteAggregateFilters } from './aggregate-filter.ts';
import { convertStatement } from './statements.ts';
import { childrenOf, descendant, type TreeNode } from './tree.ts';

let parser: WeirFlinkSQL | undefined;

/**
 * Parses one or more `;`-separated statements with dt-sql-parser's ANTLR grammar of Flink SQL.
 * A syntax error is a SQL_PARSE_ERROR at the first error's line and column, with the
 * parser's own words on what it expected.
 */
export function parseStatements(text: string): Statement[] {
  parser ??= new WeirFlinkSQL();
  const sql = rewriteAggregateFilters(text);
  const errors: Array<{ message: string; startLine: number; startColumn: number }> = [];
  const program = parser.parse(sql, (error) => errors.push(error)) as unknown as TreeNode;
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new SqlError(SqlErrorCode.SQL_PARSE_ERROR, first.message, { line: first.startLine, column: first.startColumn });
  }
  return childrenOf(program, 'SingleStatement').map((single) => convertStatement(descendant(single, 'SqlStatement')!, sql));
}

/** Exactly one statement, as executeSql and sqlQuery take. */
export function parseStatement(sql: string): Statement {
  const statements = parseStatements(sql);
  if (statements.length !== 1) {
    throw new SqlError(SqlErrorCode.SQL_PARSE_ERROR, `expected one statement, got ${statements.length}; run several INSERTs together with createStatementSet()`);
  }
  return statements[0]!;
}
