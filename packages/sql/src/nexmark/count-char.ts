import { registerFunctionClass, ScalarFunction } from '../functions/scalar-function.ts';

/**
 * Nexmark's UDF for q14 (com.github.nexmark.flink.udf.CountChar): how many times the first
 * character of `character` occurs in `s`; 0 for a NULL string. Registered under its Java class
 * name, so q14's `CREATE FUNCTION count_char AS 'com.github.nexmark.flink.udf.CountChar'` runs
 * verbatim, as the Nexmark jar on Flink's class path makes it run there.
 */
export class CountChar extends ScalarFunction {
  readonly resultType = 'BIGINT';

  eval(s: unknown, character: unknown): number {
    if (typeof s !== 'string' || typeof character !== 'string' || character.length === 0) return 0;
    const c = character[0]!;
    let count = 0;
    for (let i = 0; i < s.length; i++) if (s[i] === c) count++;
    return count;
  }
}

registerFunctionClass('com.github.nexmark.flink.udf.CountChar', CountChar);
