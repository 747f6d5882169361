const replacer = (_k: string, v: unknown): unknown => (typeof v === 'bigint' ? `${v}n` : v);

/**
 * Values as one string: keyed state and key groups hash it the same in every run, and bigints
 * (DECIMAL) survive. It is `JSON.stringify(values)` with bigints as `"12n"`, written out here for
 * numbers, strings, booleans and NULL (a replacer takes JSON.stringify off its fast path, and this
 * runs for every row at every keyBy); anything else goes through JSON.stringify, so the text, and
 * with it every key group and every key in state, is the same as before.
 */
export function keyString(values: readonly unknown[]): string {
  let out = '[';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    out += valueText(values[i]);
  }
  return `${out}]`;
}

function valueText(v: unknown): string {
  switch (typeof v) {
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return `"${v}n"`;
    default:
      // null, undefined (NULL in an array), ROW values (arrays), dates: as JSON.stringify writes them in an array.
      return v === null ? 'null' : (JSON.stringify(v, replacer) ?? 'null');
  }
}

/** The keyString of a row's fields at `indexes` (NULL for a missing one), without making the array of them first. */
export function fieldsKey(indexes: readonly number[]): (fields: readonly unknown[]) => string {
  if (indexes.length === 1) {
    const [only] = indexes as [number];
    return (fields) => `[${valueText(fields[only] ?? null)}]`;
  }
  return (fields) => {
    let out = '[';
    for (let i = 0; i < indexes.length; i++) {
      if (i > 0) out += ',';
      out += valueText(fields[indexes[i]!] ?? null);
    }
    return `${out}]`;
  };
}
