import type { ComponentChildren } from 'preact';

/** One column: a heading and what a row shows in it. Adding a figure to a table is adding a column. */
export interface Column<Row> {
  readonly title: string;
  readonly render: (row: Row) => ComponentChildren;
  readonly align?: 'right';
}

export function Table<Row>(props: { columns: readonly Column<Row>[]; rows: readonly Row[]; rowKey: (row: Row) => string; testId?: string; empty?: string }) {
  const { columns, rows, rowKey, testId, empty } = props;
  return (
    <table class="table" data-testid={testId}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th class={c.align}>{c.title}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={columns.length} class="empty">
              {empty ?? 'Nothing yet.'}
            </td>
          </tr>
        ) : (
          rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td class={c.align}>{c.render(row)}</td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
