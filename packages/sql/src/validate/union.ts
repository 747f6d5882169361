import { SqlError, SqlErrorCode } from '../errors.ts';
import type { UnionAll } from '../parse/ast.ts';
import type { LogicalNode } from '../logical/nodes.ts';
import type { Field, Rex } from '../logical/rex.ts';
import type { Catalog } from './catalog.ts';
import { bindQuery } from './query.ts';
import { commonType, typeToString, withoutRowtime } from './types.ts';

/**
 * UNION ALL: the inputs must have as many columns, of types that mix (Flink's
 * SqlValidator); each input whose types are not the common ones gets a CAST Calc.
 */
export function bindUnion(union: UnionAll, catalog: Catalog): LogicalNode {
  const inputs = union.inputs.map((q) => bindQuery(q, catalog));
  const first = inputs[0]!;
  const types = first.fields.map((f) => f.type);
  inputs.slice(1).forEach((input, n) => {
    if (input.fields.length !== types.length) {
      throw new SqlError(SqlErrorCode.SQL_INVALID_QUERY, `Column count mismatch in UNION ALL: input 1 has ${types.length} columns (${first.fields.map((f) => f.name).join(', ')}), input ${n + 2} has ${input.fields.length}`, union.pos);
    }
    input.fields.forEach((f, i) => {
      const common = commonType(types[i]!, f.type);
      if (common === undefined) {
        throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `Type mismatch in UNION ALL: column ${i + 1} is ${typeToString(withoutRowtime(types[i]!))} in input 1 and ${typeToString(withoutRowtime(f.type))} in input ${n + 2}`, union.pos);
      }
      types[i] = common;
    });
  });
  // Rows of different inputs interleave: no time attribute survives unless every input has it there.
  const fields: Field[] = first.fields.map((f, i) => ({ name: f.name, type: inputs.every((input) => input.fields[i]!.type.rowtime === true) ? { ...types[i]!, rowtime: true } : withoutRowtime(types[i]!) }));
  const aligned = inputs.map((input): LogicalNode => {
    const same = input.fields.every((f, i) => sameType(f.type, fields[i]!.type));
    if (same) return input;
    const projects: Rex[] = input.fields.map((f, index) => (sameType(f.type, fields[index]!.type) ? { kind: 'input', index, type: f.type } : { kind: 'call', op: 'CAST', operands: [{ kind: 'input', index, type: f.type }], type: withoutRowtime(fields[index]!.type) }));
    return { kind: 'calc', input, projects, fields: input.fields.map((f, index) => ({ name: f.name, type: projects[index]!.type })) };
  });
  return { kind: 'union', inputs: aligned, fields };
}

function sameType(a: Field['type'], b: Field['type']): boolean {
  return a.root === b.root && a.precision === b.precision && a.scale === b.scale;
}

/** SELECT DISTINCT: a GROUP BY on every column without aggregates (Flink's AggregateRemoveRule in reverse). */
export function distinct(node: LogicalNode): LogicalNode {
  const fields = node.fields.map((f) => ({ name: f.name, type: withoutRowtime(f.type) }));
  return { kind: 'aggregate', input: node, groupKeys: node.fields.map((_, index) => index), aggs: [], fields };
}
