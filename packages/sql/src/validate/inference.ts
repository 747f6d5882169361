import { withNullability, type SqlType } from './types.ts';

/** A scalar function's result type over its arguments' types; `fail` throws with the forms it takes. */
export type Inference = (args: readonly SqlType[], fail: (expected: string) => never) => SqlType;

/** The type, NULL-able when any argument is (a function that is NULL on a NULL argument). */
export const nullableIfAny = (type: SqlType, args: readonly SqlType[]): SqlType => withNullability(type, args.some((a) => a.nullable));

export const isString = (t: SqlType | undefined): boolean => t !== undefined && (t.root === 'STRING' || t.root === 'NULL');
export const isInteger = (t: SqlType | undefined): boolean => t !== undefined && (t.root === 'INT' || t.root === 'BIGINT' || t.root === 'NULL');

/** A function of fixed result type whose arguments `check` accepts, else the form `expected`. */
export function strings(result: SqlType, expected: string, check: (args: readonly SqlType[]) => boolean): Inference {
  return (args, fail) => {
    if (!check(args)) fail(expected);
    return nullableIfAny(result, args);
  };
}
