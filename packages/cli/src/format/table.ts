/** Rows as left-aligned columns separated by two spaces, the header first; no trailing spaces. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  return all.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd(),
  );
}
