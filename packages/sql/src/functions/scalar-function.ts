import { closest } from 'fastest-levenshtein';
import { SqlError, SqlErrorCode, type SqlPosition } from '../errors.ts';

/**
 * A user-defined scalar function (Flink's `ScalarFunction`): `eval` takes the call's argument
 * values (SQL NULL as `null`) and returns one value of `resultType`. JavaScript has no
 * reflection on `eval`'s types, so the result type is declared, as Flink's `@DataTypeHint`
 * on `eval` declares it; arguments are passed as they come.
 */
export abstract class ScalarFunction {
  /** The SQL type `eval` returns, as written in DDL: 'BIGINT', 'STRING', 'DECIMAL(10, 2)'. */
  abstract readonly resultType: string;
  abstract eval(...args: unknown[]): unknown;
}

export type ScalarFunctionClass = new () => ScalarFunction;

/**
 * The "class path" of `CREATE FUNCTION name AS 'class.name'`: in Flink the class comes from the
 * job's jars; here a package registers its functions' classes by name when it is loaded (the
 * Nexmark module registers Nexmark's `com.github.nexmark.flink.udf.CountChar`), and a job
 * registers its own with `registerFunctionClass` before its DDL runs.
 */
const CLASSES = new Map<string, ScalarFunctionClass>();

export function registerFunctionClass(className: string, fn: ScalarFunctionClass): void {
  CLASSES.set(className, fn);
}

export function functionClass(className: string, pos: SqlPosition | undefined): ScalarFunctionClass {
  const fn = CLASSES.get(className);
  if (fn !== undefined) return fn;
  const known = [...CLASSES.keys()];
  const hint = known.length === 0 ? '' : `; did you mean '${closest(className, known)}'?`;
  throw new SqlError(SqlErrorCode.SQL_UNKNOWN_FUNCTION, `Function class '${className}' not found: register it with registerFunctionClass('${className}', TheClass) before the DDL runs${hint}`, pos);
}
