import { WeirFlinkSQL } from './flink-sql.ts';
import type { Expr } from './ast.ts';
import { convertExpression } from './expressions.ts';
import { descendant, type TreeNode } from './tree.ts';

let parser: WeirFlinkSQL | undefined;

/** The one expression of `SELECT <expr>`, for select items the grammar splits (statements.ts). */
export function parseSelectList(text: string): Expr {
  parser ??= new WeirFlinkSQL();
  const tree = parser.parse(text) as unknown as TreeNode;
  const item = descendant(tree, 'SelectExpressionColumnName');
  return convertExpression(item!.getChild(0)!);
}
