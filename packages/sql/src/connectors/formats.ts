import { SqlError, SqlErrorCode } from '../errors.ts';
import type { Field } from '../logical/rex.ts';
import { formatValue, parseValue } from '../translate/values.ts';

/** A line format of the filesystem connector: a row's fields to one line and back. */
export interface LineFormat {
  serialize(values: readonly unknown[]): string;
  deserialize(line: string): unknown[];
}

/** Flink's csv format: ',' between fields, a field quoted with '"' when it holds one, a comma or a line break; an empty field is null. */
export function csvFormat(fields: readonly Field[], delimiter = ','): LineFormat {
  const quote = (text: string): string => (/[",\n\r]/.test(text) || text.includes(delimiter) ? `"${text.replaceAll('"', '""')}"` : text);
  return {
    serialize: (values) => values.map((v, i) => (v === null ? '' : quote(formatValue(v, fields[i]!.type)))).join(delimiter),
    deserialize(line) {
      const texts: string[] = [];
      let current = '';
      let quoted = false;
      for (let i = 0; i < line.length; i++) {
        const ch = line[i]!;
        if (quoted) {
          if (ch === '"' && line[i + 1] === '"') {
            current += '"';
            i++;
          } else if (ch === '"') quoted = false;
          else current += ch;
        } else if (ch === '"') quoted = true;
        else if (ch === delimiter) {
          texts.push(current);
          current = '';
        } else current += ch;
      }
      texts.push(current);
      if (texts.length !== fields.length) {
        throw new SqlError(SqlErrorCode.SQL_INVALID_VALUE, `CSV line has ${texts.length} fields, the table ${fields.length} (${fields.map((f) => f.name).join(', ')}): ${line.slice(0, 200)}`);
      }
      return texts.map((t, i) => (t === '' && fields[i]!.type.root !== 'STRING' ? null : parseValue(t, fields[i]!.type)));
    },
  };
}

/** Flink's json format: one object per line, keyed by column name; DECIMAL as a JSON number, timestamps as 'yyyy-MM-dd HH:mm:ss.SSS'. */
export function jsonFormat(fields: readonly Field[]): LineFormat {
  return {
    serialize(values) {
      const parts = values.map((v, i) => {
        const type = fields[i]!.type;
        const text = v === null ? 'null' : type.root === 'DECIMAL' || type.root === 'INT' || type.root === 'BIGINT' || type.root === 'DOUBLE' || type.root === 'BOOLEAN' ? formatValue(v, type).toLowerCase() : JSON.stringify(formatValue(v, type));
        return `${JSON.stringify(fields[i]!.name)}:${text}`;
      });
      return `{${parts.join(',')}}`;
    },
    deserialize(line) {
      let object: Record<string, unknown>;
      try {
        object = JSON.parse(line) as Record<string, unknown>;
      } catch (err) {
        throw new SqlError(SqlErrorCode.SQL_INVALID_VALUE, `not a JSON object: ${line.slice(0, 200)} (${(err as Error).message})`);
      }
      return fields.map((f) => {
        const v = object[f.name];
        if (v === null || v === undefined) return null;
        return parseValue(typeof v === 'string' ? v : String(v), f.type);
      });
    },
  };
}

/** Flink's raw format: the whole message is the table's one column, a STRING as UTF-8 text. */
export function rawFormat(fields: readonly Field[], table: string): LineFormat {
  if (fields.length !== 1 || fields[0]!.type.root !== 'STRING') {
    throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table}': the 'raw' format takes one STRING column, got ${fields.length === 0 ? 'none' : fields.map((f) => `${f.name} ${f.type.root}`).join(', ')}`);
  }
  return { serialize: (values) => String(values[0]), deserialize: (line) => [line] };
}

/** The line formats by 'format' option value (kafka, upsert-kafka). */
export function lineFormatOf(name: string, fields: readonly Field[], table: string, delimiter = ','): LineFormat {
  if (name === 'csv') return csvFormat(fields, delimiter);
  if (name === 'json') return jsonFormat(fields);
  if (name === 'raw') return rawFormat(fields, table);
  throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `Table '${table}': no format '${name}'; Weir's SQL has 'json', 'csv' and 'raw'`);
}
