import type { SqlPosition } from '../errors.ts';

/** The parser's output: statements and expressions as written, with where each starts; no names resolved yet. */

export type Expr =
  | { readonly kind: 'column'; readonly path: readonly string[]; readonly pos: SqlPosition }
  | { readonly kind: 'literal'; readonly type: 'number' | 'string' | 'boolean' | 'null'; readonly text: string; readonly pos: SqlPosition }
  /** INTERVAL 'n' UNIT: the value as written and the unit (SECOND, MINUTE, HOUR, DAY, MILLISECOND). */
  | { readonly kind: 'interval'; readonly value: string; readonly unit: string; readonly pos: SqlPosition }
  /**
   * A function or an operator: `+`, `-`, `*`, `/`, `%`, `||`, `=`, `<>`, `<`, `<=`, `>`, `>=`,
   * `AND`, `OR`, `NOT`, `NEGATE`, `IS NULL`, `IS NOT NULL`, `IS TRUE`, `IS FALSE`, `LIKE`,
   * `BETWEEN`, `IN` (the NOT forms are NOT around them), or a function by its upper-case name.
   */
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly Expr[]; readonly star?: boolean; readonly distinct?: boolean; readonly pos: SqlPosition }
  /** CASE [operand] WHEN .. THEN .. [ELSE ..] END */
  | { readonly kind: 'case'; readonly operand?: Expr; readonly whens: ReadonlyArray<readonly [Expr, Expr]>; readonly otherwise?: Expr; readonly pos: SqlPosition }
  | { readonly kind: 'cast'; readonly expr: Expr; readonly typeText: string; readonly pos: SqlPosition }
  /** `fn(..) OVER (PARTITION BY .. ORDER BY .. [frame])`: ROW_NUMBER for Top-N, an aggregate for an OVER aggregation. */
  | {
      readonly kind: 'over';
      readonly call: Extract<Expr, { kind: 'call' }>;
      readonly partitionBy: readonly Expr[];
      readonly orderBy: readonly OrderItem[];
      /** ROWS / RANGE BETWEEN .. as written (OVER aggregations are not run yet). */
      readonly frame?: string;
      readonly pos: SqlPosition;
    };

export interface OrderItem {
  readonly expr: Expr;
  readonly desc: boolean;
}

/** INNER (also a comma join, its condition in WHERE), LEFT, RIGHT and FULL [OUTER] JOIN. */
export type JoinType = 'INNER' | 'LEFT' | 'RIGHT' | 'FULL';

export type SelectItem =
  | { readonly kind: 'expr'; readonly expr: Expr; readonly alias?: string }
  | { readonly kind: 'star'; readonly qualifier?: string; readonly pos: SqlPosition };

export type FromItem =
  /** A table; `asOf` is its `FOR SYSTEM_TIME AS OF expr` (a lookup or temporal join's right side). */
  | { readonly kind: 'table'; readonly name: string; readonly alias?: string; readonly asOf?: Expr; readonly pos: SqlPosition }
  | { readonly kind: 'subquery'; readonly query: Query; readonly alias?: string; readonly pos: SqlPosition }
  /** `left [type] JOIN right ON condition`; a comma join has no condition (it is in WHERE). */
  | { readonly kind: 'join'; readonly joinType: JoinType; readonly left: FromItem; readonly right: FromItem; readonly condition?: Expr; readonly pos: SqlPosition }
  /** FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(col), size)), HOP (slide, size) and CUMULATE (step, size). */
  | {
      readonly kind: 'window';
      readonly fn: 'TUMBLE' | 'HOP' | 'CUMULATE';
      readonly table: string;
      readonly tablePos: SqlPosition;
      readonly timeColumn: string;
      readonly timeColumnPos: SqlPosition;
      readonly intervals: ReadonlyArray<Extract<Expr, { kind: 'interval' }>>;
      readonly alias?: string;
      readonly pos: SqlPosition;
    };

export interface Select {
  readonly kind: 'select';
  /** SELECT DISTINCT (absent otherwise, so statements without it keep the uids they had). */
  readonly distinct?: true;
  readonly items: readonly SelectItem[];
  readonly from?: FromItem;
  readonly where?: Expr;
  readonly groupBy: readonly Expr[];
  readonly having?: Expr;
  readonly pos: SqlPosition;
}

/** `q1 UNION ALL q2 [UNION ALL ...]`. */
export interface UnionAll {
  readonly kind: 'union';
  readonly inputs: readonly Query[];
  readonly pos: SqlPosition;
}

export type Query = Select | UnionAll;

export interface ColumnDefinition {
  readonly name: string;
  readonly pos: SqlPosition;
  /** A physical column's type as written. */
  readonly typeText?: string;
  /** A computed column's expression (`name AS expr`). */
  readonly computed?: Expr;
  /** A metadata column (`name TYPE METADATA [FROM 'key'] [VIRTUAL]`): the connector's value for `key`; a VIRTUAL one is read, never written. */
  readonly metadata?: { readonly key: string; readonly virtual: boolean };
}

export interface CreateTable {
  readonly kind: 'createTable';
  readonly name: string;
  readonly pos: SqlPosition;
  readonly temporary: boolean;
  readonly ifNotExists: boolean;
  readonly columns: readonly ColumnDefinition[];
  readonly watermark?: { readonly column: string; readonly columnPos: SqlPosition; readonly expr: Expr };
  readonly primaryKey?: readonly string[];
  /** PARTITIONED BY's columns, in order. */
  readonly partitionKeys?: ReadonlyArray<{ readonly name: string; readonly pos: SqlPosition }>;
  readonly options: Readonly<Record<string, string>>;
}

/** What a SHOW statement lists. */
export type ShowWhat = 'TABLES' | 'VIEWS' | 'FUNCTIONS' | 'USER FUNCTIONS';

export type Statement =
  | CreateTable
  | { readonly kind: 'createView'; readonly name: string; readonly pos: SqlPosition; readonly query: Query; readonly text: string }
  | { readonly kind: 'insert'; readonly table: string; readonly tablePos: SqlPosition; readonly query: Query }
  | Query
  | { readonly kind: 'createFunction'; readonly name: string; readonly className: string; readonly ifNotExists: boolean; readonly pos: SqlPosition }
  /** SHOW TABLES (views too, as Flink's), SHOW VIEWS, SHOW FUNCTIONS (built-in and user), SHOW USER FUNCTIONS. */
  | { readonly kind: 'show'; readonly what: ShowWhat }
  | { readonly kind: 'set'; readonly key?: string; readonly value?: string; readonly pos?: SqlPosition }
  | { readonly kind: 'reset'; readonly key?: string }
  | { readonly kind: 'describe'; readonly name: string; readonly pos: SqlPosition }
  | { readonly kind: 'explain'; readonly statement: Extract<Statement, { kind: 'insert' | 'select' | 'union' }> };
