import type { ScalarFunction } from '../functions/scalar-function.ts';
import type { SqlType } from '../validate/types.ts';
import { typeToString } from '../validate/types.ts';

/**
 * A resolved, typed expression over the fields of an operator's input (Calcite's RexNode):
 * `input` is a field by index, `call` an operator or function by its upper-case name
 * (`CASE` has operands [when1, then1, ..., else], `CAST` converts to its own type); a
 * user-defined function's call carries the function (`udf`), its name as `op`.
 */
export type Rex =
  | { readonly kind: 'input'; readonly index: number; readonly type: SqlType }
  | { readonly kind: 'literal'; readonly value: unknown; readonly type: SqlType }
  | { readonly kind: 'call'; readonly op: string; readonly operands: readonly Rex[]; readonly type: SqlType; readonly udf?: ScalarFunction };

export interface Field {
  readonly name: string;
  readonly type: SqlType;
}

const INFIX = new Set(['+', '-', '*', '/', '%', '||', '=', '<>', '<', '<=', '>', '>=', 'AND', 'OR']);

/** As EXPLAIN prints it, Flink-like: `*(price, 2)`, `>(a, 1)`, `CAST(x AS STRING)`, names of the input's fields. */
export function rexToString(rex: Rex, fields: readonly Field[]): string {
  switch (rex.kind) {
    case 'input':
      return fields[rex.index]?.name ?? `$${rex.index}`;
    case 'literal':
      return literalToString(rex);
    case 'call': {
      const operands = rex.operands.map((o) => rexToString(o, fields));
      if (rex.op === 'CAST') return `CAST(${operands[0]} AS ${typeToString(rex.type)})`;
      if (rex.op === 'FIELD') return `${operands[0]}.${fieldName(rex)}`;
      // Flink prints EXTRACT's unit as a symbol: EXTRACT(FLAG(HOUR), ts).
      if (rex.op === 'EXTRACT') return `EXTRACT(FLAG(${String((rex.operands[0] as Extract<Rex, { kind: 'literal' }>).value)}), ${operands[1]})`;
      if (INFIX.has(rex.op)) return `${rex.op}(${operands.join(', ')})`;
      return `${rex.op}(${operands.join(', ')})`;
    }
  }
}

/** A ROW field access `FIELD(row, index)`'s field name. */
function fieldName(rex: Extract<Rex, { kind: 'call' }>): string {
  const index = (rex.operands[1] as Extract<Rex, { kind: 'literal' }>).value as number;
  return rex.operands[0]!.type.fields?.[index]?.name ?? String(index);
}

/**
 * `row.field` (Flink's field access on a ROW column, as Nexmark's `person.id`): the field's value,
 * NULL when the row is NULL. The field's type is nullable: the row may be.
 */
export function fieldAccess(base: Rex, name: string): Rex | undefined {
  const index = base.type.root === 'ROW' ? base.type.fields!.findIndex((f) => f.name === name) : -1;
  if (index < 0) return undefined;
  const type = { ...base.type.fields![index]!.type, nullable: true };
  return { kind: 'call', op: 'FIELD', operands: [base, { kind: 'literal', value: index, type: { root: 'INT', nullable: false } }], type };
}

function literalToString(rex: Extract<Rex, { kind: 'literal' }>): string {
  if (rex.value === null) return 'null';
  if (rex.type.root === 'STRING') return `_UTF-16LE'${String(rex.value)}'`;
  if (rex.type.root === 'INTERVAL') return `${Number(rex.value)}:INTERVAL SECOND`;
  if (rex.type.root === 'DECIMAL') {
    const scale = rex.type.scale ?? 0;
    const digits = (rex.value as bigint).toString().padStart(scale + 1, '0');
    return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  }
  return String(rex.value);
}

/** The input fields an expression reads. */
export function inputsOf(rex: Rex, into: Set<number> = new Set()): Set<number> {
  if (rex.kind === 'input') into.add(rex.index);
  else if (rex.kind === 'call') for (const o of rex.operands) inputsOf(o, into);
  return into;
}

/** The expression with every input replaced by the expression given for it (merging a Calc into the one above). */
export function substituteInputs(rex: Rex, projects: readonly Rex[]): Rex {
  if (rex.kind === 'input') return projects[rex.index]!;
  if (rex.kind === 'call') return { ...rex, operands: rex.operands.map((o) => substituteInputs(o, projects)) };
  return rex;
}
