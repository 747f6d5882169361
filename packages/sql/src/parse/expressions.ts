import type { Expr, OrderItem } from './ast.ts';
import { convertExtract } from './extract.ts';
import { timestampUnit } from './timestamp-units.ts';
import { child, children, childrenOf, descendant, identifierPath, identifierText, isTerminal, keywords, kind, positionOf, ruleChildren, stringValue, tokenText, unsupported, type TreeNode } from './tree.ts';

/** Wrappers of one child that carry nothing of their own. */
const PASS_THROUGH = new Set(['Expression', 'ValueExpressionDefault', 'FunctionCall', 'ConstantDefault', 'ComputedColumnExpression', 'FunctionParam', 'ErrorCapturingMultiUnitsInterval']);

/** An expression of dt-sql-parser's tree as Weir's SQL AST. */
export function convertExpression(node: TreeNode): Expr {
  const k = kind(node);
  const pos = positionOf(node);
  const rules = ruleChildren(node);
  if (PASS_THROUGH.has(k) && node.getChildCount() === 1) return convertExpression(node.getChild(0)!);
  switch (k) {
    case 'Predicated':
      return rules.length === 1 ? convertExpression(rules[0]!) : predicate(convertExpression(rules[0]!), rules[1]!);
    case 'LogicalBinary':
      return { kind: 'call', name: keywords(node)[0]!, args: [convertExpression(rules[0]!), convertExpression(rules[1]!)], pos };
    case 'LogicalNot':
      return { kind: 'call', name: 'NOT', args: [convertExpression(rules[0]!)], pos };
    case 'ArithmeticBinary':
      return { kind: 'call', name: keywords(node)[0]!, args: [convertExpression(rules[0]!), convertExpression(rules[1]!)], pos: positionOf(children(node)[1]!) };
    case 'ArithmeticUnary': {
      const operand = convertExpression(rules[0]!);
      return keywords(node)[0] === '-' ? { kind: 'call', name: 'NEGATE', args: [operand], pos } : operand;
    }
    case 'Comparison': {
      const operator = child(node, 'ComparisonOperator')!;
      const name = operator.getText() === '!=' ? '<>' : operator.getText();
      return { kind: 'call', name, args: [convertExpression(rules[0]!), convertExpression(rules[2]!)], pos: positionOf(operator) };
    }
    case 'ParenthesizedExpression':
      return convertExpression(rules[0]!);
    case 'ColumnReference':
      return { kind: 'column', path: identifierPath(node), pos };
    case 'Constant':
      return constant(node);
    case 'TimeIntervalExpression':
      return interval(node);
    case 'FunctionCallExpression':
      return functionCall(node);
    case 'Extract':
      return convertExtract(node, convertExpression);
    case 'SearchedCase':
    case 'SimpleCase': {
      const whens = childrenOf(node, 'WhenClause').map((w) => {
        const [condition, result] = ruleChildren(w);
        return [convertExpression(condition!), convertExpression(result!)] as const;
      });
      const words = children(node);
      const elseAt = words.findIndex((c) => isTerminal(c) && c.getText().toUpperCase() === 'ELSE');
      const operand = k === 'SimpleCase' ? convertExpression(rules[0]!) : undefined;
      return { kind: 'case', ...(operand ? { operand } : {}), whens, ...(elseAt >= 0 ? { otherwise: convertExpression(words[elseAt + 1]!) } : {}), pos };
    }
    case 'Position': {
      // POSITION(needle IN haystack): Flink's LOCATE(needle, haystack).
      const [needle, haystack] = rules;
      return { kind: 'call', name: 'LOCATE', args: [convertExpression(needle!), convertExpression(haystack!)], pos };
    }
    case 'Cast':
      return { kind: 'cast', expr: convertExpression(rules[0]!), typeText: tokenText(child(node, 'ColumnType')!), pos };
    default:
      throw unsupported(node, `the expression ${node.getText()}`);
  }
}

function predicate(value: Expr, node: TreeNode): Expr {
  const pos = positionOf(node);
  const like = child(node, 'LikePredicate');
  const words = keywords(like ?? node);
  const negated = words.includes('NOT');
  const wrap = (e: Expr): Expr => (negated ? { kind: 'call', name: 'NOT', args: [e], pos } : e);
  if (like !== undefined) {
    if (!words.includes('LIKE')) throw unsupported(node, `the predicate ${words.join(' ')}`);
    return wrap({ kind: 'call', name: 'LIKE', args: [value, convertExpression(ruleChildren(like)[0]!)], pos });
  }
  const rules = ruleChildren(node);
  if (words[0] === 'IS') {
    const what = words[words.length - 1]!;
    if (what === 'NULL') return { kind: 'call', name: negated ? 'IS NOT NULL' : 'IS NULL', args: [value], pos };
    if (what === 'TRUE' || what === 'FALSE') return wrap({ kind: 'call', name: `IS ${what}`, args: [value], pos });
  }
  if (words.includes('BETWEEN')) return wrap({ kind: 'call', name: 'BETWEEN', args: [value, convertExpression(rules[0]!), convertExpression(rules[1]!)], pos });
  if (words.includes('IN') && rules.every((r) => kind(r) === 'Expression')) {
    return wrap({ kind: 'call', name: 'IN', args: [value, ...rules.map(convertExpression)], pos });
  }
  throw unsupported(node, `the predicate ${node.getText()}`);
}

function constant(node: TreeNode): Expr {
  const pos = positionOf(node);
  const parts = children(node);
  if (parts.length === 2 && parts[0]!.getText() === '-') {
    return { kind: 'literal', type: 'number', text: `-${parts[1]!.getText()}`, pos };
  }
  const only = parts[0]!;
  const k = kind(only);
  if (k === 'TimeIntervalExpression') return interval(only);
  const text = only.getText();
  if (k === 'StringLiteral') {
    // The grammar reads a backquoted name in an expression as a string literal.
    if (text.startsWith('`')) return { kind: 'column', path: [identifierText(text)], pos };
    return { kind: 'literal', type: 'string', text: stringValue(text), pos };
  }
  if (k === 'BooleanLiteral') return { kind: 'literal', type: 'boolean', text: text.toUpperCase(), pos };
  if (text.toUpperCase() === 'NULL') return { kind: 'literal', type: 'null', text: 'NULL', pos };
  if (/^[0-9.eE+-]+$/.test(text)) return { kind: 'literal', type: 'number', text, pos };
  throw unsupported(node, `the literal ${text}`);
}

function interval(node: TreeNode): Extract<Expr, { kind: 'interval' }> {
  const multi = descendant(node, 'MultiUnitsInterval');
  const values = multi ? childrenOf(multi, 'IntervalValue') : [];
  const units = multi ? childrenOf(multi, 'TimeIntervalUnit') : [];
  if (values.length !== 1 || units.length !== 1) throw unsupported(node, `the interval ${node.getText()} (write INTERVAL 'n' UNIT)`);
  return { kind: 'interval', value: stringValue(values[0]!.getText()), unit: units[0]!.getText().toUpperCase(), pos: positionOf(node) };
}

const NILADIC = new Set(['CURRENT_TIMESTAMP', 'LOCALTIMESTAMP', 'CURRENT_DATE']);

function functionCall(node: TreeNode): Expr {
  const pos = positionOf(node);
  const typed = child(node, 'FunctionNameAndParams');
  if (typed !== undefined) {
    // DATE '2020-01-01', TIMESTAMP '2020-01-01 00:00:00': a typed literal.
    const [name, value] = children(typed);
    const typeName = name!.getText().toUpperCase();
    const literal: Expr = { kind: 'literal', type: 'string', text: stringValue(value!.getText()), pos };
    return { kind: 'cast', expr: literal, typeText: typeName === 'TIMESTAMP' ? 'TIMESTAMP(3)' : typeName, pos };
  }
  const nameNode = child(node, 'FunctionNameWithParams') ?? child(node, 'FunctionNameCreate');
  // SQL's niladic functions, written without parentheses.
  const bare = node.getText().toUpperCase();
  if (nameNode === undefined && NILADIC.has(bare)) return { kind: 'call', name: bare, args: [], pos };
  if (nameNode === undefined) throw unsupported(node, `the function call ${node.getText()}`);
  const name = identifierPath(nameNode).join('.').toUpperCase();
  // ROW_NUMBER() has one empty parameter in the grammar.
  const params = childrenOf(node, 'FunctionParam').filter((p) => p.getText() !== '');
  const star = params.length === 1 && params[0]!.getText() === '*';
  const distinct = child(node, 'SetQuantifier')?.getText().toUpperCase() === 'DISTINCT';
  const unitFirst = (name === 'TIMESTAMPDIFF' || name === 'TIMESTAMPADD') && params[0] !== undefined && child(params[0], 'TimeIntervalUnit') !== undefined;
  const args = star ? [] : params.map((p, i) => (unitFirst && i === 0 ? timestampUnit(p) : convertExpression(p)));
  return { kind: 'call', name, args, ...(star ? { star } : {}), ...(distinct ? { distinct } : {}), pos };
}

/** `fn(..) OVER (PARTITION BY .. ORDER BY ..)` of a select item (OverWindowItem), with its alias if written inside it. */
export function convertOver(node: TreeNode): { expr: Expr; alias?: string } {
  const call = convertExpression(child(node, 'FunctionCall')!);
  const spec = child(node, 'WindowSpec');
  if (call.kind !== 'call' || spec === undefined) throw unsupported(node, `the OVER window ${node.getText()} (write OVER (PARTITION BY .. ORDER BY ..))`);
  const partition = child(spec, 'PartitionByClause');
  const order = child(spec, 'OrderByClause');
  const frame = child(spec, 'WindowFrame');
  const partitionBy = partition === undefined ? [] : ruleChildren(partition).map(columnOrExpression);
  const orderBy: OrderItem[] = order === undefined ? [] : childrenOf(order, 'OrderItemDefinition').map((item) => ({ expr: columnOrExpression(ruleChildren(item)[0]!), desc: keywords(item).includes('DESC') }));
  const aliasNode = ruleChildren(node).find((c) => !['FunctionCall', 'WindowSpec'].includes(kind(c)));
  const expr: Expr = { kind: 'over', call, partitionBy, orderBy, ...(frame ? { frame: frame.getText() } : {}), pos: positionOf(node) };
  return { expr, ...(aliasNode ? { alias: identifierPath(aliasNode).join('.') } : {}) };
}

function columnOrExpression(node: TreeNode): Expr {
  return kind(node) === 'ColumnName' ? { kind: 'column', path: identifierPath(node), pos: positionOf(node) } : convertExpression(node);
}
