import type { DataStream, StreamExecutionEnvironment } from '@weir/api';
import { collectQuery } from './collect.ts';
import { SqlError, SqlErrorCode } from './errors.ts';
import type { Field } from './logical/rex.ts';
import type { Query, ShowWhat, Statement } from './parse/ast.ts';
import { parseStatement, parseStatements } from './parse/parser.ts';
import { checkInsert, explainText, planQuery, statementUid, translateInsert, translateQuery, type PlannedQuery } from './planner.ts';
import type { Row } from './row.ts';
import { TableConfig } from './table-config.ts';
import type { TranslateOptions } from './translate/translator.ts';
import { functionClass, type ScalarFunction, type ScalarFunctionClass } from './functions/scalar-function.ts';
import { Catalog } from './validate/catalog.ts';
import { tableFromDdl } from './validate/ddl.ts';
import { FUNCTION_NAMES } from './validate/functions.ts';
import { typeToString } from './validate/types.ts';

/** What executeSql returns (Flink's TableResult): 'OK', the rows of SHOW / DESCRIBE / EXPLAIN, or a SELECT's columns (its rows go to the job's collect sink). */
export class TableResult {
  constructor(
    readonly columns: readonly string[],
    readonly rows: ReadonlyArray<readonly string[]>,
  ) {}

  static readonly OK = new TableResult(['result'], [['OK']]);

  /** The rows as lines, columns separated by two spaces (EXPLAIN's one row is its text). */
  toString(): string {
    return this.rows.map((r) => r.join('  ')).join('\n');
  }
}

/** A query's result as a relation (Flink's Table): its schema, its plan, and its rows as a stream. */
export class Table {
  constructor(
    private readonly tEnv: StreamTableEnvironment,
    readonly planned: PlannedQuery,
    private readonly text: string,
  ) {}

  /** The columns and their types, as Flink's ResolvedSchema prints them. */
  getResolvedSchema(): ReadonlyArray<{ name: string; type: string }> {
    return this.planned.fields.map((f) => ({ name: f.name, type: typeToString(f.type) }));
  }

  get fields(): readonly Field[] {
    return this.planned.fields;
  }

  explain(): string {
    return explainText(this.planned);
  }

  /** Runs INSERT INTO `table` SELECT * FROM this, as part of the job (Flink's Table.executeInsert). */
  executeInsert(table: string): TableResult {
    return this.tEnv.executeSql(`INSERT INTO ${table} ${this.text}`);
  }

  /** @internal The query's operators on the environment. */
  translate(): DataStream<Row> {
    return translateQuery(this.planned, this.tEnv.env, this.tEnv.nextUid(this.text), this.tEnv.translateOptions());
  }
}

/**
 * Several INSERTs planned together into the job (Flink's StatementSet). In a job module the
 * job is what the module builds, so execute() adds the INSERTs to the environment's graph,
 * as Flink's StreamStatementSet.attachAsDataStream() does.
 */
export class StatementSet {
  readonly #inserts: string[] = [];

  constructor(private readonly tEnv: StreamTableEnvironment) {}

  addInsertSql(statement: string): this {
    const parsed = parseStatement(statement);
    if (parsed.kind !== 'insert') throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `a StatementSet takes INSERT INTO statements, got ${parsed.kind}`);
    // Planned now, so a mistake is reported by the statement that has it.
    this.tEnv.planInsert(parsed);
    this.#inserts.push(statement);
    return this;
  }

  explain(): string {
    return this.#inserts.map((s) => this.tEnv.executeSql(`EXPLAIN ${s}`).toString()).join('\n');
  }

  execute(): TableResult {
    for (const statement of this.#inserts) this.tEnv.executeSql(statement);
    return TableResult.OK;
  }

  attachAsDataStream(): void {
    this.execute();
  }
}

/**
 * Flink SQL on a Weir job (Flink's StreamTableEnvironment): DDL fills this environment's
 * catalog, queries are planned at once (so every error comes before the job is submitted),
 * and INSERTs add their operators to `env`'s job graph.
 */
export class StreamTableEnvironment {
  readonly #catalog = new Catalog();
  readonly #config = new TableConfig();
  readonly #uidUses = new Map<string, number>();

  private constructor(readonly env: StreamExecutionEnvironment) {}

  static create(env: StreamExecutionEnvironment): StreamTableEnvironment {
    return new StreamTableEnvironment(env);
  }

  /** Runs one statement: CREATE TABLE / VIEW, INSERT INTO and SELECT (added to the job), SHOW TABLES, DESCRIBE, EXPLAIN. */
  executeSql(statement: string): TableResult {
    return this.#execute(parseStatement(statement), statement);
  }

  /** Runs a script of `;`-separated statements in order; returns each one's result. */
  executeScript(script: string): TableResult[] {
    return parseStatements(script).map((s) => this.#execute(s, script));
  }

  sqlQuery(query: string): Table {
    const parsed = parseStatement(query);
    if (parsed.kind !== 'select' && parsed.kind !== 'union') throw new SqlError(SqlErrorCode.SQL_UNSUPPORTED, `sqlQuery() takes a SELECT; use executeSql() for ${parsed.kind}`);
    return new Table(this, planQuery(parsed, this.#catalog), query);
  }

  createStatementSet(): StatementSet {
    return new StatementSet(this);
  }

  /** The configuration (Flink's TableConfig): `getConfig().set('table.exec.state.ttl', '1 h')`, as `SET` does. */
  getConfig(): TableConfig {
    return this.#config;
  }

  /** @internal */
  translateOptions(): TranslateOptions {
    const stateTtl = this.#config.stateTtl();
    return stateTtl === undefined ? {} : { stateTtl };
  }

  /**
   * A user-defined scalar function for this environment's queries (Flink's
   * createTemporarySystemFunction): an instance, or a class to make one of.
   */
  createTemporarySystemFunction(name: string, fn: ScalarFunction | ScalarFunctionClass): void {
    this.#catalog.addFunction(name, typeof fn === 'function' ? new fn() : fn, undefined);
  }

  listTables(): string[] {
    return this.#catalog.names();
  }

  /** An insert-only table's rows as a stream (Flink refuses an updating one here: use toChangelogStream). */
  toDataStream(table: Table): DataStream<Row> {
    if (table.planned.physical.mode !== 'insert-only') {
      throw new SqlError(SqlErrorCode.SQL_UPDATES_NOT_ACCEPTED, 'Table is not an append-only table: its query produces updates; use toChangelogStream(table) instead');
    }
    return table.translate();
  }

  /** Every row of the table's changelog, each with its kind (+I, -U, +U, -D). */
  toChangelogStream(table: Table): DataStream<Row> {
    return table.translate();
  }

  /** @internal A uid maker for one statement: its text's digest, and a count when the same text is planned again. */
  nextUid(text: string): (operator: string) => string {
    const uses = this.#uidUses.get(text) ?? 0;
    this.#uidUses.set(text, uses + 1);
    return statementUid(text, uses);
  }

  /** @internal */
  planInsert(insert: Extract<Statement, { kind: 'insert' }>): PlannedQuery {
    const sink = this.#catalog.table(insert.table, insert.tablePos);
    const planned = planQuery(insert.query, this.#catalog);
    checkInsert(planned, sink, insert.tablePos);
    return planned;
  }

  #execute(statement: Statement, text: string): TableResult {
    switch (statement.kind) {
      case 'createTable':
        this.#catalog.add(tableFromDdl(statement), statement.pos, statement.ifNotExists);
        return TableResult.OK;
      case 'createView': {
        const planned = planQuery(statement.query, this.#catalog);
        this.#catalog.add({ kind: 'view', name: statement.name, query: statement.query, text: statement.text, fields: planned.fields }, statement.pos);
        return TableResult.OK;
      }
      case 'insert': {
        const planned = this.planInsert(statement);
        const sink = this.#catalog.table(statement.table, statement.tablePos);
        translateInsert(planned, sink, this.env, this.nextUid(insertKey(statement, text)), this.translateOptions());
        return TableResult.OK;
      }
      case 'select':
      case 'union': {
        // As Flink's executeSql(SELECT): the job gets a collect sink; the rows go to its submitter (`weir sql`).
        const planned = planQuery(statement, this.#catalog);
        collectQuery(planned, this.env, this.nextUid(JSON.stringify(stripPositions(statement))), this.translateOptions());
        return new TableResult(planned.fields.map((f) => f.name), []);
      }
      case 'createFunction': {
        const FunctionClass = functionClass(statement.className, statement.pos);
        this.#catalog.addFunction(statement.name, new FunctionClass(), statement.pos, statement.ifNotExists);
        return TableResult.OK;
      }
      case 'show':
        return show(statement.what, this.#catalog);
      case 'set':
        if (statement.key === undefined) return new TableResult(['key', 'value'], this.#config.entries());
        if (statement.value === undefined) throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `SET '${statement.key}' needs a value: SET '${statement.key}' = '...'`, statement.pos);
        this.#config.set(statement.key, statement.value, statement.pos);
        return TableResult.OK;
      case 'reset':
        this.#config.reset(statement.key);
        return TableResult.OK;
      case 'describe': {
        const entry = this.#catalog.get(statement.name, statement.pos);
        if (entry.kind === 'view') return new TableResult(['name', 'type'], entry.fields.map((f) => [f.name, typeToString(f.type)]));
        return new TableResult(
          ['name', 'type', 'null', 'key', 'extras', 'watermark'],
          entry.columns.map((c, i) => [
            c.name,
            typeToString({ ...c.type, nullable: true }),
            c.type.nullable ? 'TRUE' : 'FALSE',
            entry.primaryKey?.includes(c.name) ? `PRI(${entry.primaryKey.join(', ')})` : '',
            c.computedText !== undefined ? `AS ${c.computedText}` : c.metadata !== undefined ? `METADATA${c.metadata.key === c.name ? '' : ` FROM '${c.metadata.key}'`}${c.metadata.virtual ? ' VIRTUAL' : ''}` : '',
            entry.watermark?.column === i ? entry.watermark.text : '',
          ]),
        );
      }
      case 'explain': {
        const inner = statement.statement;
        if (inner.kind === 'select' || inner.kind === 'union') return new TableResult(['result'], [[explainText(planQuery(inner, this.#catalog))]]);
        const planned = this.planInsert(inner);
        return new TableResult(['result'], [[explainText(planned, this.#catalog.table(inner.table, inner.tablePos))]]);
      }
    }
  }
}

/** SHOW's rows as Flink's SQL client prints them: one column, names sorted; functions in lower case. */
function show(what: ShowWhat, catalog: Catalog): TableResult {
  switch (what) {
    case 'TABLES':
      return new TableResult(['table name'], catalog.names().map((n) => [n]));
    case 'VIEWS':
      return new TableResult(['view name'], catalog.names().filter((n) => catalog.get(n, undefined).kind === 'view').map((n) => [n]));
    case 'FUNCTIONS':
      return new TableResult(['function name'], [...new Set([...FUNCTION_NAMES, ...catalog.functionNames()].map((n) => n.toLowerCase()))].sort().map((n) => [n]));
    case 'USER FUNCTIONS':
      return new TableResult(['function name'], catalog.functionNames().map((n) => n.toLowerCase()).sort().map((n) => [n]));
  }
}

/** An INSERT's identity for its uids: its target and query as parsed, so formatting does not change them. */
function insertKey(statement: Extract<Statement, { kind: 'insert' }>, _text: string): string {
  return JSON.stringify({ table: statement.table, query: stripPositions(statement.query) });
}

function stripPositions(query: Query): unknown {
  return JSON.parse(JSON.stringify(query, (key, value: unknown) => (key === 'pos' || key === 'tablePos' || key === 'timeColumnPos' || key === 'columnPos' ? undefined : value)));
}
