import type { CreateTable, Select } from '../parse/ast.ts';
import { parseStatement } from '../parse/parser.ts';
import type { LogicalNode } from '../logical/nodes.ts';
import { compile } from '../translate/compile.ts';
import { formatValue } from '../translate/values.ts';
import { Catalog } from '../validate/catalog.ts';
import { tableFromDdl } from '../validate/ddl.ts';
import { bindQuery } from '../validate/query.ts';
import type { SqlType } from '../validate/types.ts';

/** `SELECT <items> FROM t` bound over the one table `ddl` creates (named t): its Calc, for unit tests of expressions. */
export function bindItems(ddl: string, items: string): Extract<LogicalNode, { kind: 'calc' }> {
  const catalog = new Catalog();
  catalog.add(tableFromDdl(parseStatement(ddl) as CreateTable), undefined);
  const plan = bindQuery(parseStatement(`SELECT ${items} FROM t`) as Select, catalog);
  if (plan.kind !== 'calc') throw new Error(plan.kind);
  return plan;
}

/** Each select item over one row: its value as Flink prints it ('null' for NULL) and its type. */
export function evaluateItems(ddl: string, items: string, row: readonly unknown[]): Array<{ value: string; type: SqlType }> {
  const plan = bindItems(ddl, items);
  return plan.projects.map((p, i) => {
    const v = compile(p)(row);
    const type = plan.fields[i]!.type;
    return { value: v === null ? 'null' : formatValue(v, type), type };
  });
}
