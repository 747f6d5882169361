import { describe, expect, it } from 'vitest';
import type { CreateTable, Select, Statement } from '../parse/ast.ts';
import { parseStatement } from '../parse/parser.ts';
import { CountChar } from '../nexmark/count-char.ts';
import { compile } from '../translate/compile.ts';
import { Catalog } from '../validate/catalog.ts';
import { tableFromDdl } from '../validate/ddl.ts';
import { bindQuery } from '../validate/query.ts';
import { typeToString } from '../validate/types.ts';
import { functionClass, registerFunctionClass, ScalarFunction } from './scalar-function.ts';

class Twice extends ScalarFunction {
  readonly resultType = 'STRING';
  eval(s: unknown): string | null {
    return s === null ? null : `${s as string}${s as string}`;
  }
}

function catalog(): Catalog {
  const c = new Catalog();
  c.add(tableFromDdl(parseStatement("CREATE TABLE t (s STRING, ts TIMESTAMP(3)) WITH ('connector' = 'datagen')") as CreateTable), undefined);
  return c;
}

/** Each select item over one row, with the item's type. */
function evaluate(c: Catalog, items: string, row: unknown[]): string[] {
  const plan = bindQuery(parseStatement(`SELECT ${items} FROM t`) as Select, c);
  if (plan.kind !== 'calc') throw new Error(plan.kind);
  return plan.projects.map((p) => `${String(compile(p)(row))}: ${typeToString(p.type)}`);
}

describe('user-defined scalar functions', () => {
  it('runs a registered function by any case of its name, its result typed as it declares', () => {
    const c = catalog();
    c.addFunction('twice', new Twice(), undefined);
    expect(evaluate(c, "twice(s), TWICE('x'), Twice(NULL)", ['ab', 0])).toEqual(['abab: STRING', 'xx: STRING', 'null: STRING']);
  });

  it("CREATE FUNCTION's class comes from the registered classes; an unknown one is refused with the nearest", () => {
    registerFunctionClass('com.example.Twice', Twice);
    const statement = parseStatement("CREATE TEMPORARY FUNCTION IF NOT EXISTS twice AS 'com.example.Twice'") as Extract<Statement, { kind: 'createFunction' }>;
    expect([statement.kind, statement.name, statement.className, statement.ifNotExists]).toEqual(['createFunction', 'twice', 'com.example.Twice', true]);
    expect(functionClass('com.example.Twice', undefined)).toBe(Twice);
    expect(() => functionClass('com.example.Twise', { line: 1, column: 1 })).toThrow("Function class 'com.example.Twise' not found: register it with registerFunctionClass('com.example.Twise', TheClass) before the DDL runs; did you mean 'com.example.Twice'?");
  });

  it('suggests a registered function for a misspelt call, and refuses a second one of the same name', () => {
    const c = catalog();
    c.addFunction('count_char', new CountChar(), undefined);
    expect(() => evaluate(c, "count_chr(s, 'c')", [])).toThrow(/No match found for function signature COUNT_CHR; did you mean COUNT_CHAR\?/);
    expect(() => c.addFunction('COUNT_CHAR', new CountChar(), { line: 1, column: 1 })).toThrow(/Function COUNT_CHAR already exists/);
  });

  it("Nexmark's CountChar counts the character's first letter; HOUR, MINUTE, SECOND read a timestamp in UTC", () => {
    const c = catalog();
    c.addFunction('count_char', new CountChar(), undefined);
    const ts = Date.UTC(2026, 11, 3, 23, 5, 9, 42);
    expect(evaluate(c, "count_char(s, 'c'), count_char(NULL, 'c'), HOUR(ts), MINUTE(ts), SECOND(ts)", ['cacbcc', ts])).toEqual([
      '4: BIGINT',
      '0: BIGINT',
      '23: BIGINT',
      '5: BIGINT',
      '9: BIGINT',
    ]);
  });
});
