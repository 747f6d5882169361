import { SqlError, SqlErrorCode } from '../errors.ts';
import type { CreateTable } from '../parse/ast.ts';
import type { Rex } from '../logical/rex.ts';
import { fieldAccess, rexToString } from '../logical/rex.ts';
import { suggest, type CatalogColumn, type CatalogTable } from './catalog.ts';
import { bindExpr } from './expressions.ts';
import { isTimestamp, parseType, typeToString, withNullability, withoutRowtime } from './types.ts';

/** CREATE TABLE as a catalog table: types parsed, computed columns and the watermark bound and checked. */
export function tableFromDdl(ddl: CreateTable): CatalogTable {
  const seen = new Set<string>();
  const physical: CatalogColumn[] = [];
  const metadata: CatalogColumn[] = [];
  for (const column of ddl.columns) {
    if (seen.has(column.name)) throw new SqlError(SqlErrorCode.SQL_TABLE_EXISTS, `Column '${column.name}' is declared twice in ${ddl.name}`, column.pos);
    seen.add(column.name);
    if (column.metadata !== undefined) {
      metadata.push({ name: column.name, type: parseType(column.typeText!, column.pos), metadata: { ...column.metadata, index: metadata.length } });
    } else if (column.typeText !== undefined) physical.push({ name: column.name, type: parseType(column.typeText, column.pos), physicalIndex: physical.length });
  }
  const physicalScope = {
    column: (c: { path: readonly string[]; pos: CreateTable['pos'] }): Rex => {
      if (c.path.length === 2) {
        // `row.field` over a ROW column (Nexmark's `person.dateTime`).
        const base = physical.findIndex((p) => p.name === c.path[0] && p.type.root === 'ROW');
        const access = base < 0 ? undefined : fieldAccess({ kind: 'input', index: base, type: physical[base]!.type }, c.path[1]!);
        if (access !== undefined) return access;
      }
      const name = c.path[c.path.length - 1]!;
      const index = physical.findIndex((p) => p.name === name);
      if (index < 0) throw new SqlError(SqlErrorCode.SQL_UNKNOWN_COLUMN, `Column '${name}' not found among the physical columns of ${ddl.name}${suggest(name, physical.map((p) => p.name))}`, c.pos);
      return { kind: 'input', index, type: physical[index]!.type };
    },
  };
  let columns: CatalogColumn[] = ddl.columns.map((column) => {
    if (column.metadata !== undefined) return metadata.find((m) => m.name === column.name)!;
    if (column.typeText !== undefined) return physical.find((p) => p.name === column.name)!;
    const computed = bindExpr(column.computed!, physicalScope);
    // A computed column is no event-time attribute until a WATERMARK says so; `AS PROCTIME()` is a processing-time one (Flink's).
    const type = computed.type.proctime === true ? computed.type : withoutRowtime(computed.type);
    return { name: column.name, type, computed, computedText: rexToString(computed, physical) };
  });
  if (ddl.primaryKey !== undefined) {
    for (const key of ddl.primaryKey) {
      const index = columns.findIndex((c) => c.name === key);
      if (index < 0) throw new SqlError(SqlErrorCode.SQL_UNKNOWN_COLUMN, `PRIMARY KEY column '${key}' not found in ${ddl.name}${suggest(key, columns.map((c) => c.name))}`, ddl.pos);
      columns[index] = { ...columns[index]!, type: withNullability(columns[index]!.type, false) };
    }
  }
  for (const key of ddl.partitionKeys ?? []) {
    // Flink's words (DefaultSchemaResolver / CatalogTable checks): partition keys are physical columns.
    if (!physical.some((c) => c.name === key.name)) {
      throw new SqlError(SqlErrorCode.SQL_UNKNOWN_COLUMN, `Partition column '${key.name}' not defined in the table schema${suggest(key.name, physical.map((c) => c.name))}`, key.pos);
    }
  }
  let watermark: CatalogTable['watermark'];
  if (ddl.watermark !== undefined) {
    const { column, columnPos, expr } = ddl.watermark;
    const index = columns.findIndex((c) => c.name === column);
    if (index < 0) throw new SqlError(SqlErrorCode.SQL_UNKNOWN_COLUMN, `The rowtime attribute field '${column}' is not defined in the table schema${suggest(column, columns.map((c) => c.name))}`, columnPos);
    const type = columns[index]!.type;
    if (!isTimestamp(type)) {
      throw new SqlError(
        SqlErrorCode.SQL_TYPE_MISMATCH,
        `Invalid data type of time field for watermark definition. The field must be of type TIMESTAMP(3) or TIMESTAMP_LTZ(3), but the time field '${column}' is ${typeToString(type)}`,
        columnPos,
      );
    }
    const rowScope = {
      column: (c: { path: readonly string[]; pos: CreateTable['pos'] }): Rex => {
        const name = c.path[c.path.length - 1]!;
        const at = columns.findIndex((col) => col.name === name);
        if (at < 0) throw new SqlError(SqlErrorCode.SQL_UNKNOWN_COLUMN, `Column '${name}' not found in ${ddl.name}${suggest(name, columns.map((col) => col.name))}`, c.pos);
        return { kind: 'input', index: at, type: columns[at]!.type };
      },
    };
    const bound = bindExpr(expr, rowScope);
    if (!isTimestamp(bound.type)) {
      throw new SqlError(SqlErrorCode.SQL_TYPE_MISMATCH, `The watermark expression must be of type TIMESTAMP(3) or TIMESTAMP_LTZ(3), but is ${typeToString(bound.type)}`, expr.pos);
    }
    columns = columns.map((c, i) => (i === index ? { ...c, type: { ...c.type, rowtime: true } } : c));
    watermark = { column: index, expr: bound, text: rexToString(bound, columns) };
  }
  return {
    kind: 'table',
    name: ddl.name,
    columns,
    physicalCount: physical.length,
    ...(watermark ? { watermark } : {}),
    ...(ddl.primaryKey ? { primaryKey: ddl.primaryKey } : {}),
    ...(ddl.partitionKeys ? { partitionKeys: ddl.partitionKeys.map((k) => k.name) } : {}),
    options: ddl.options,
  };
}
