import { SqlError, SqlErrorCode, type SqlPosition } from '../errors.ts';
import { parseSelectList } from './reparse.ts';
import type { ColumnDefinition, CreateTable, Expr, FromItem, JoinType, Query, SelectItem, ShowWhat, Statement } from './ast.ts';
import { convertExpression, convertOver } from './expressions.ts';
import { child, children, childrenOf, descendant, identifierPath, identifierText, keywords, kind, positionOf, ruleChildren, sourceText, stringValue, tokenText, unsupported, type TreeNode } from './tree.ts';

const SHOWN: readonly ShowWhat[] = ['TABLES', 'VIEWS', 'FUNCTIONS', 'USER FUNCTIONS'];

/** One SqlStatement node of dt-sql-parser's tree as a Weir SQL statement. */
export function convertStatement(node: TreeNode, sql: string): Statement {
  const [inner] = ruleChildren(node);
  if (inner === undefined) throw unsupported(node, `the statement ${node.getText()}`);
  switch (kind(inner)) {
    case 'DdlStatement': {
      const ddl = ruleChildren(inner)[0]!;
      if (kind(ddl) === 'CreateTable') {
        const simple = child(ddl, 'SimpleCreateTable');
        if (simple === undefined) throw unsupported(ddl, 'CREATE TABLE .. AS / LIKE');
        return createTable(simple);
      }
      if (kind(ddl) === 'CreateView') {
        const query = child(ddl, 'QueryStatement')!;
        return { kind: 'createView', name: identifierPath(child(ddl, 'ViewPathCreate')!).join('.'), pos: positionOf(ddl), query: convertQuery(query, sql), text: sourceText(query, sql) };
      }
      if (kind(ddl) === 'CreateFunction') {
        // CREATE [TEMPORARY [SYSTEM]] FUNCTION [IF NOT EXISTS] name AS 'class' [LANGUAGE JAVA]: the class from registerFunctionClass.
        const words = keywords(ddl);
        if (words.includes('USING')) throw unsupported(ddl, 'CREATE FUNCTION .. USING JAR');
        const className = children(ddl).find((c) => kind(c) === 'QuotedIdentifierAlternative' || kind(c) === 'StringLiteral' || c.getText().startsWith("'"));
        if (className === undefined) throw unsupported(ddl, 'CREATE FUNCTION without a class name');
        return { kind: 'createFunction', name: identifierPath(child(ddl, 'FunctionNameCreate')!).join('.'), className: stringValue(className.getText()), ifNotExists: /^CREATE(TEMPORARY)?(SYSTEM)?FUNCTIONIFNOTEXISTS/i.test(ddl.getText()), pos: positionOf(ddl) };
      }
      throw unsupported(ddl, `the statement ${keywords(ddl).slice(0, 2).join(' ')}`);
    }
    case 'DmlStatement':
      return dml(inner, sql);
    case 'ShowStatement':
    {
      const words = keywords(inner).join(' ');
      const what = SHOWN.find((w) => words === `SHOW ${w}`);
      if (what !== undefined) return { kind: 'show', what };
      throw unsupported(inner, `the statement ${words} (Weir shows ${SHOWN.map((w) => `SHOW ${w}`).join(', ')})`);
    }
    case 'DescribeStatement':
      return { kind: 'describe', name: identifierPath(ruleChildren(inner)[0]!).join('.'), pos: positionOf(ruleChildren(inner)[0]!) };
    case 'SetStatement': {
      // SET 'key' = 'value' (Flink's SQL client and executeSql); a bare SET lists what is set.
      const property = child(inner, 'TableProperty');
      if (property === undefined) return { kind: 'set' };
      const [key, value] = ruleChildren(property);
      return { kind: 'set', key: stringValue(identifierText(key!.getText())), ...(value === undefined ? {} : { value: stringValue(value.getText()) }), pos: positionOf(property) };
    }
    case 'ResetStatement': {
      const key = child(inner, 'TablePropertyKey');
      return { kind: 'reset', ...(key === undefined ? {} : { key: stringValue(identifierText(key.getText())) }) };
    }
    case 'ExplainStatement': {
      const target = child(inner, 'DmlStatement');
      if (target === undefined) throw unsupported(inner, 'EXPLAIN of this statement');
      return { kind: 'explain', statement: dml(target, sql) };
    }
    default:
      throw unsupported(inner, `the statement ${keywords(inner).slice(0, 2).join(' ') || inner.getText().slice(0, 20)}`);
  }
}

function dml(node: TreeNode, sql: string): Extract<Statement, { kind: 'insert' | 'select' | 'union' }> {
  const inner = ruleChildren(node)[0]!;
  if (kind(inner) === 'QueryStatement') return convertQuery(inner, sql);
  if (kind(inner) === 'InsertStatement') {
    const simple = child(inner, 'InsertSimpleStatement');
    if (simple === undefined || keywords(simple).includes('OVERWRITE')) throw unsupported(inner, 'this INSERT (write INSERT INTO table SELECT ...)');
    const target = child(simple, 'TablePath')!;
    const query = child(simple, 'QueryStatement');
    if (query === undefined) throw unsupported(simple, 'INSERT without a SELECT (VALUES, a column list)');
    return { kind: 'insert', table: identifierPath(target).join('.'), tablePos: positionOf(target), query: convertQuery(query, sql) };
  }
  throw unsupported(inner, 'this statement');
}

function createTable(node: TreeNode): CreateTable {
  const words = keywords(node);
  const columns: ColumnDefinition[] = [];
  let watermark: CreateTable['watermark'];
  let primaryKey: string[] | undefined;
  let partitionKeys: CreateTable['partitionKeys'];
  for (const part of ruleChildren(node)) {
    switch (kind(part)) {
      case 'ColumnOptionDefinition': {
        const column = ruleChildren(part)[0]!;
        const nameNode = child(column, 'ColumnNameCreate')!;
        const name = identifierPath(nameNode).join('.');
        if (kind(column) === 'PhysicalColumnDefinition') {
          columns.push({ name, pos: positionOf(nameNode), typeText: tokenText(child(column, 'ColumnType')!) });
          if (descendant(column, 'ColumnConstraint')?.getText().toUpperCase().includes('PRIMARYKEY')) primaryKey = [name];
        } else if (kind(column) === 'ComputedColumnDefinition') {
          columns.push({ name, pos: positionOf(nameNode), computed: convertExpression(child(column, 'ComputedColumnExpression')!) });
        } else {
          // name TYPE METADATA [FROM 'key'] [VIRTUAL]: the key is the column's name when FROM is left out.
          const key = child(column, 'MetadataKey');
          columns.push({
            name,
            pos: positionOf(nameNode),
            typeText: child(column, 'ColumnType')!.getText(),
            metadata: { key: key === undefined ? name : stringValue(key.getText()), virtual: keywords(column).includes('VIRTUAL') },
          });
        }
        break;
      }
      case 'WatermarkDefinition': {
        const column = child(part, 'ColumnName')!;
        watermark = { column: identifierPath(column).join('.'), columnPos: positionOf(column), expr: convertExpression(child(part, 'Expression')!) };
        break;
      }
      case 'TableConstraint':
        primaryKey = childrenOf(child(part, 'ColumnNameList')!, 'ColumnName').map((c) => identifierPath(c).join('.'));
        break;
      case 'PartitionDefinition':
        // PARTITIONED BY (a, b): Flink's partition keys are plain columns (its grammar's identity transforms).
        partitionKeys = ruleChildren(child(part, 'TransformList')!).map((t) => {
          if (kind(t) !== 'IdentityTransform') throw unsupported(t, `the partition transform ${t.getText()}`);
          return { name: identifierPath(t).join('.'), pos: positionOf(t) };
        });
        break;
      case 'WithOption':
      case 'TablePathCreate':
      case 'IfNotExists':
        break;
      default:
        throw unsupported(part, `${part.getText().slice(0, 30)} in CREATE TABLE`);
    }
  }
  const options: Record<string, string> = {};
  for (const property of childrenOf(child(child(node, 'WithOption') ?? node, 'TablePropertyList') ?? node, 'TableProperty')) {
    const [key, value] = ruleChildren(property);
    options[stringValue(identifierText(key!.getText()))] = stringValue(value!.getText());
  }
  const nameNode = child(node, 'TablePathCreate')!;
  return {
    kind: 'createTable',
    name: identifierPath(nameNode).join('.'),
    pos: positionOf(nameNode),
    temporary: words.includes('TEMPORARY'),
    ifNotExists: child(node, 'IfNotExists') !== undefined,
    columns,
    ...(watermark ? { watermark } : {}),
    ...(primaryKey ? { primaryKey } : {}),
    ...(partitionKeys ? { partitionKeys } : {}),
    options,
  };
}

export function convertQuery(node: TreeNode, sql: string): Query {
  const rules = ruleChildren(node);
  if (kind(node) === 'QueryStatement' && rules.length === 1 && kind(rules[0]!) === 'QueryStatement') return convertQuery(rules[0]!, sql);
  const words = keywords(node);
  if (kind(node) === 'QueryStatement' && words[0] === 'UNION') {
    if (words[1] !== 'ALL') throw unsupported(node, 'UNION without ALL (write UNION ALL, or SELECT DISTINCT over a UNION ALL)');
    // A chain q1 UNION ALL q2 UNION ALL q3 nests on the left; flattened into one n-ary union.
    const inputs = rules.map((r) => convertQuery(r, sql)).flatMap((q) => (q.kind === 'union' ? q.inputs : [q]));
    return { kind: 'union', inputs, pos: positionOf(children(node).find((c) => c.getText().toUpperCase() === 'UNION')!) };
  }
  const select = kind(node) === 'SelectStatement' ? node : rules.length === 1 && kind(rules[0]!) === 'SelectStatement' ? rules[0]! : kind(rules[0]!) === 'SelectClause' && rules.length === 1 ? node : undefined;
  if (select === undefined) throw unsupported(node, `the query form ${words.join(' ') || 'VALUES, ORDER BY, LIMIT'}`);
  const selectClause = child(select, 'SelectClause')!;
  const distinct = keywords(selectClause).includes('DISTINCT') || child(selectClause, 'SetQuantifier')?.getText().toUpperCase() === 'DISTINCT';
  const items = childrenOf(child(selectClause, 'SelectList')!, 'ColumnProjectItem').map((item) => selectItem(item, sql));
  let from: FromItem | undefined;
  let where: Expr | undefined;
  let groupBy: Expr[] = [];
  let having: Expr | undefined;
  for (const clause of ruleChildren(select)) {
    switch (kind(clause)) {
      case 'SelectClause':
        break;
      case 'FromClause':
        from = fromItem(child(clause, 'TableExpression')!, sql);
        break;
      case 'WhereClause':
        where = convertExpression(ruleChildren(clause)[0]!);
        break;
      case 'GroupByClause':
        groupBy = childrenOf(clause, 'GroupItemDefinition').map(groupItem);
        break;
      case 'HavingClause':
        having = convertExpression(ruleChildren(clause)[0]!);
        break;
      default:
        throw unsupported(clause, `${keywords(clause).join(' ') || kind(clause)} in a query`);
    }
  }
  return { kind: 'select', ...(distinct ? { distinct: true as const } : {}), items, ...(from ? { from } : {}), ...(where ? { where } : {}), groupBy, ...(having ? { having } : {}), pos: positionOf(select) };
}

function groupItem(node: TreeNode): Expr {
  const inner = ruleChildren(node)[0]!;
  if (kind(inner) === 'ColumnName') return { kind: 'column', path: identifierPath(inner), pos: positionOf(inner) };
  if (kind(inner) === 'Expression') return convertExpression(inner);
  if (kind(inner) === 'GroupWindowFunction') {
    // SESSION(ts, INTERVAL ..), TUMBLE(..), HOP(..): Flink's legacy group windows, read as calls for the validator.
    const time = child(inner, 'TimeAttrColumn')!;
    const intervals = childrenOf(inner, 'TimeIntervalExpression').map(convertExpression);
    const name = child(inner, 'GroupWindowFunctionName')!.getText().toUpperCase();
    return { kind: 'call', name, args: [{ kind: 'column', path: identifierPath(time), pos: positionOf(time) }, ...intervals], pos: positionOf(inner) };
  }
  throw unsupported(node, `GROUP BY ${node.getText()} (GROUPING SETS, ROLLUP, CUBE)`);
}

function selectItem(node: TreeNode, sql: string): SelectItem {
  const parts = ruleChildren(node);
  const first = parts[0]!;
  if (kind(first) === 'TableAllColumns') {
    const qualifier = identifierPath(first).filter((p) => p !== '*');
    return { kind: 'star', ...(qualifier.length > 0 ? { qualifier: qualifier.join('.') } : {}), pos: positionOf(first) };
  }
  const aliasNode = child(node, 'ColumnAlias');
  let alias = aliasNode === undefined ? undefined : identifierPath(ruleChildren(aliasNode)[0]!).join('.');
  let expr: Expr;
  if (kind(first) === 'SelectLiteralColumnName') {
    const name = ruleChildren(first)[0]!;
    const text = name.getText();
    const pos = positionOf(name);
    const rest = parts.find((p) => kind(p) === 'Expression');
    if (rest !== undefined) {
      // The grammar reads `f(x)` (a function it has no rule for) and `a + 1`, `a - 1` as the column, then an expression.
      expr = rest.getText().startsWith('(') ? { kind: 'call', name: text.toUpperCase(), args: [convertExpression(rest)], pos } : reparseWithParentheses(first, rest, sql);
    } else if (text.startsWith("'")) {
      // ...and a string literal in the select list as a quoted column name.
      expr = { kind: 'literal', type: 'string', text: stringValue(text), pos };
    } else {
      expr = { kind: 'column', path: identifierPath(name), pos };
    }
  } else if (kind(first) === 'SelectExpressionColumnName') {
    expr = convertExpression(ruleChildren(first)[0]!);
  } else if (kind(first) === 'SelectWindowItemColumnName') {
    const over = convertOver(child(first, 'OverWindowItem')!);
    expr = over.expr;
    alias ??= over.alias;
  } else {
    throw unsupported(node, `the select item ${node.getText()}`);
  }
  return { kind: 'expr', expr, ...(alias !== undefined ? { alias } : {}) };
}

const JOIN_WORDS: ReadonlyArray<[string, JoinType]> = [
  ['LEFT', 'LEFT'],
  ['RIGHT', 'RIGHT'],
  ['FULL', 'FULL'],
];

/** A FROM clause's TableExpression (a join, a comma list, one table) or one of its items (TableReference, WindowTVFClause). */
function fromItem(node: TreeNode, sql: string): FromItem {
  if (kind(node) !== 'TableExpression') return tableItem(node, sql);
  const parts = ruleChildren(node);
  const words = keywords(node);
  if (words.includes('JOIN') && parts.length === 3 && kind(parts[2]!) === 'JoinCondition') {
    const condition = parts[2]!;
    if (keywords(condition)[0] !== 'ON') throw unsupported(condition, 'JOIN .. USING (write JOIN .. ON a.k = b.k)');
    if (words.some((w) => ['CROSS', 'NATURAL', 'SEMI', 'ANTI', 'LATERAL'].includes(w))) throw unsupported(node, `${words.join(' ')}`);
    const joinType = JOIN_WORDS.find(([w]) => words.includes(w))?.[1] ?? 'INNER';
    const joinWord = children(node).find((c) => c.getText().toUpperCase() === 'JOIN')!;
    return { kind: 'join', joinType, left: fromItem(parts[0]!, sql), right: fromItem(parts[1]!, sql), condition: convertExpression(ruleChildren(condition)[0]!), pos: positionOf(joinWord) };
  }
  if (words.length > 0 && words.every((w) => w === ',') && parts.length === words.length + 1) {
    // FROM a, b, c WHERE ...: inner joins nested on the left, their conditions taken from WHERE by the validator.
    return parts.slice(1).reduce<FromItem>((left, right, i) => ({ kind: 'join', joinType: 'INNER', left, right: fromItem(right, sql), pos: positionOf(children(node).filter((c) => c.getText() === ',')[i]!) }), fromItem(parts[0]!, sql));
  }
  if (parts.length !== 1) throw unsupported(node, `${words.join(' ') || 'this list of tables'} in FROM`);
  return fromItem(parts[0]!, sql);
}

function tableItem(item: TreeNode, sql: string): FromItem {
  if (kind(item) === 'WindowTVFClause') return windowItem(item);
  if (kind(item) !== 'TableReference') throw unsupported(item, `${item.getText().slice(0, 30)} in FROM`);
  const aliasNode = child(item, 'TableAlias');
  const alias = aliasNode === undefined ? undefined : identifierPath(ruleChildren(aliasNode)[0]!).join('.');
  const primary = child(item, 'TablePrimary')!;
  // A lookup or temporal join's `t FOR SYSTEM_TIME AS OF x.time`: kept on the table, the validator decides (validate/lookup-join.ts).
  const period = child(item, 'SystemTimePeriod') ?? child(primary, 'SystemTimePeriod');
  const inner = ruleChildren(primary)[0]!;
  if (kind(inner) === 'TablePath') {
    const asOf = period === undefined ? undefined : convertExpression(ruleChildren(child(period, 'DateTimeExpression')!)[0]!);
    return { kind: 'table', name: identifierPath(inner).join('.'), ...(alias ? { alias } : {}), ...(asOf ? { asOf } : {}), pos: positionOf(inner) };
  }
  if (period !== undefined) throw unsupported(period, 'FOR SYSTEM_TIME AS OF on anything but a table');
  if (kind(inner) === 'AtomExpressionTable') {
    const query = child(inner, 'QueryStatement');
    if (query !== undefined) return { kind: 'subquery', query: convertQuery(query, sql), ...(alias ? { alias } : {}), pos: positionOf(inner) };
  }
  if (kind(inner) === 'WindowTVFClause') return windowItem(inner);
  throw unsupported(primary, `${primary.getText().slice(0, 30)} in FROM`);
}

function windowItem(node: TreeNode): FromItem {
  const tvf = child(node, 'WindowTVFExpression')!;
  const fn = child(tvf, 'WindowTVFName')!.getText().toUpperCase();
  if (fn !== 'TUMBLE' && fn !== 'HOP' && fn !== 'CUMULATE') throw unsupported(tvf, `the window function ${fn}`);
  const params = childrenOf(tvf, 'WindowTVFParam');
  const tableParam = params.find((p) => keywords(p)[0] === 'TABLE');
  const descriptor = params.map((p) => child(p, 'ColumnDescriptor')).find((d) => d !== undefined);
  if (tableParam === undefined || descriptor === undefined) {
    throw new SqlError(SqlErrorCode.SQL_PARSE_ERROR, `${fn} takes TABLE t, DESCRIPTOR(time_column) and intervals, as in ${fn}(TABLE t, DESCRIPTOR(ts), INTERVAL '10' SECOND)`, positionOf(tvf));
  }
  const intervals = params.flatMap((p) => ruleChildren(p)).filter((r) => kind(r) === 'TimeIntervalExpression').map((r) => convertExpression(r) as Extract<Expr, { kind: 'interval' }>);
  const tableNode = ruleChildren(tableParam)[0]!;
  const columnNode = child(descriptor, 'ColumnName')!;
  const aliasNode = children(node).find((c) => kind(c) === 'TableAlias');
  return {
    kind: 'window',
    fn,
    table: identifierPath(tableNode).join('.'),
    tablePos: positionOf(tableNode),
    timeColumn: identifierPath(columnNode).join('.'),
    timeColumnPos: positionOf(columnNode),
    intervals,
    ...(aliasNode ? { alias: identifierPath(ruleChildren(aliasNode)[0]!).join('.') } : {}),
    pos: positionOf(tvf),
  };
}

/**
 * `a + 1` in a select list, which the grammar splits into the column a and `+ 1`: parsed again
 * as `(a) + 1`, positions mapped back to where they are written in the statement.
 */
function reparseWithParentheses(column: TreeNode, rest: TreeNode, sql: string): Expr {
  const start = column.start!.start;
  const stop = rest.stop!.stop;
  const columnEnd = column.stop!.stop + 1;
  const text = `SELECT (${sql.slice(start, columnEnd)})${sql.slice(columnEnd, stop + 1)}`;
  const reparsed = parseSelectList(text);
  const origin = positionOf(column);
  // On the first line, past 'SELECT (' and, after the column, its ')'.
  const close = 'SELECT ('.length + (columnEnd - start) + 1;
  const shift = (pos: SqlPosition): SqlPosition =>
    pos.line === 1 ? { line: origin.line, column: origin.column + pos.column - 'SELECT ('.length - 1 - (pos.column > close ? 1 : 0) } : { line: origin.line + pos.line - 1, column: pos.column };
  return JSON.parse(JSON.stringify(reparsed), (key, value: unknown) => (key === 'pos' ? shift(value as SqlPosition) : value)) as Expr;
}
