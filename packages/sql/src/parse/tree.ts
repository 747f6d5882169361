import { SqlError, SqlErrorCode, type SqlPosition } from '../errors.ts';

/**
 * The few things the converters need from dt-sql-parser's ANTLR parse tree (antlr4ng's
 * ParserRuleContext and TerminalNode), typed here so the rest of the package does not depend
 * on the generated parser's classes. A context is told apart by its class name, which names
 * the grammar rule or labelled alternative (`ArithmeticBinaryContext` -> `ArithmeticBinary`).
 */
export interface TreeNode {
  getChildCount(): number;
  getChild(i: number): TreeNode | null;
  getText(): string;
  readonly start?: { line: number; column: number; start: number } | null;
  readonly stop?: { stop: number } | null;
  readonly symbol?: { line: number; column: number; start: number; stop: number };
}

export function kind(node: TreeNode): string {
  return node.constructor.name.replace(/Context$/, '');
}

export function children(node: TreeNode): TreeNode[] {
  const out: TreeNode[] = [];
  for (let i = 0; i < node.getChildCount(); i++) out.push(node.getChild(i)!);
  return out;
}

export function isTerminal(node: TreeNode): boolean {
  return node.symbol !== undefined;
}

/** Upper-case texts of a node's direct terminal children (its keywords and punctuation). */
export function keywords(node: TreeNode): string[] {
  return children(node).filter(isTerminal).map((c) => c.getText().toUpperCase());
}

export function ruleChildren(node: TreeNode): TreeNode[] {
  return children(node).filter((c) => !isTerminal(c));
}

export function child(node: TreeNode, name: string): TreeNode | undefined {
  return children(node).find((c) => kind(c) === name);
}

export function childrenOf(node: TreeNode, name: string): TreeNode[] {
  return children(node).filter((c) => kind(c) === name);
}

/** The first descendant (or the node itself) of that kind, depth first. */
export function descendant(node: TreeNode, name: string): TreeNode | undefined {
  if (kind(node) === name) return node;
  for (const c of children(node)) {
    const found = descendant(c, name);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function positionOf(node: TreeNode): SqlPosition {
  const token = node.symbol ?? node.start;
  return token ? { line: token.line, column: token.column + 1 } : { line: 1, column: 1 };
}

/** The statement text a node covers, as written. */
export function sourceText(node: TreeNode, sql: string): string {
  const start = node.start?.start ?? 0;
  const stop = node.stop?.stop ?? sql.length - 1;
  return sql.slice(start, stop + 1);
}

/** A type as written, its words apart (`ROW<id BIGINT,name STRING>`, `DECIMAL(10,2)`): getText drops the space between a ROW field's name and type. */
export function tokenText(node: TreeNode): string {
  return tokens(node).join(' ').replace(/\s*([(),<>])\s*/g, '$1');
}

function tokens(node: TreeNode): string[] {
  if (isTerminal(node)) return node.getText() === '<EOF>' ? [] : [node.getText()];
  return children(node).flatMap(tokens);
}

export function unsupported(node: TreeNode, what: string): SqlError {
  return new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `${what} is not supported by Weir's SQL yet`, positionOf(node));
}

/** An identifier as written: `name` unquoted keeps its case, `\`na me\`` loses the backquotes. */
export function identifierText(text: string): string {
  if (text.startsWith('`') && text.endsWith('`')) return text.slice(1, -1).replaceAll('``', '`');
  return text;
}

/** A '...' literal's value. */
export function stringValue(text: string): string {
  return text.startsWith("'") && text.endsWith("'") ? text.slice(1, -1).replaceAll("''", "'") : text;
}

/** The dotted parts of an identifier node (Uid, UidAllowEmpty, TablePath, ColumnNamePath...). */
export function identifierPath(node: TreeNode): string[] {
  const parts: string[] = [];
  const visit = (n: TreeNode): void => {
    const k = kind(n);
    if (k === 'UnquotedIdentifier' || k === 'QuotedIdentifier') {
      parts.push(identifierText(n.getText()));
      return;
    }
    if (isTerminal(n)) {
      if (n.getText() !== '.') parts.push(identifierText(n.getText()));
      return;
    }
    for (const c of children(n)) visit(c);
  };
  visit(node);
  return parts;
}
