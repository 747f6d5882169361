import type { CollectedRow } from '@weir/sql';
import { tableau } from './tableau.ts';
import type { ClientSettings } from './client-settings.ts';
import { MaterializedTable } from './materialized-table.ts';

/** Where a view draws: a terminal redraws a live table in place; anything else gets the final one. */
export interface Screen {
  write(text: string): void;
  /** A terminal: the live table is redrawn as rows come. */
  readonly live: boolean;
  /** The terminal's height, to keep a redrawn table on screen. */
  readonly rows?: number;
}

/** A SELECT's result as it arrives; `end` draws it one last time with the job's final status. */
export interface ResultView {
  add(rows: readonly CollectedRow[], jobStatus: string): void;
  end(jobStatus: string): void;
}

export function resultView(jobId: string, columns: readonly string[], settings: ClientSettings, screen: Screen, now: () => Date = () => new Date()): ResultView {
  return settings.mode === 'table' ? new TableView(jobId, columns, settings.maxTableRows, screen, now) : new ChangeView(columns, settings.mode === 'tableau', screen);
}

/** Lines a live table leaves for the header, the rule lines and the status line. */
const CHROME_LINES = 6;

/** The `table` mode: the materialized rows, redrawn in place on a terminal under one status line. */
class TableView implements ResultView {
  readonly #table: MaterializedTable;
  #drawnLines = 0;
  #drawnChanges = -1;

  constructor(
    private readonly jobId: string,
    private readonly columns: readonly string[],
    maxRows: number,
    private readonly screen: Screen,
    private readonly now: () => Date,
  ) {
    this.#table = new MaterializedTable(maxRows);
  }

  add(rows: readonly CollectedRow[], jobStatus: string): void {
    for (const row of rows) this.#table.apply(row);
    if (this.screen.live) this.#draw(jobStatus, 'Ctrl-C cancels the query');
  }

  end(jobStatus: string): void {
    this.#drawnChanges = -1;
    this.#draw(jobStatus, 'ended');
  }

  #draw(jobStatus: string, hint: string): void {
    // A redraw without news would only flicker; the status line still changes with the job's status.
    if (this.#drawnChanges === this.#table.changes && this.#drawnLines > 0 && hint !== 'ended') return;
    this.#drawnChanges = this.#table.changes;
    const all = this.#table.rows;
    const room = this.screen.live && this.screen.rows !== undefined ? Math.max(1, this.screen.rows - CHROME_LINES) : all.length;
    const shown = all.length > room ? all.slice(all.length - room) : all;
    const box = tableau(this.columns, shown).slice(0, -1);
    const status = `Updated: ${this.now().toISOString().slice(11, 23)}  Rows: ${all.length}${shown.length < all.length ? ` (last ${shown.length} shown)` : ''}  Job ${this.jobId}: ${jobStatus}  (${hint})`;
    const lines = [...box, status];
    const up = this.#drawnLines > 0 ? `\x1b[${this.#drawnLines}F\x1b[J` : '';
    this.screen.write(`${up}${lines.join('\n')}\n`);
    this.#drawnLines = lines.length;
  }
}

/** The `changelog` and `tableau` modes: every change as it comes, with its kind in the first column. */
class ChangeView implements ResultView {
  readonly #widths: number[];
  #started = false;

  constructor(
    private readonly columns: readonly string[],
    private readonly boxed: boolean,
    private readonly screen: Screen,
  ) {
    this.#widths = ['op', ...columns].map((c) => Math.max(c.length, 2));
  }

  add(rows: readonly CollectedRow[]): void {
    if (rows.length === 0) return;
    const lines: string[] = [];
    if (!this.#started) {
      this.#started = true;
      this.#widen(['op', ...this.columns]);
      if (this.boxed) lines.push(this.#rule(), this.#line(['op', ...this.columns]), this.#rule());
      else lines.push(this.#line(['op', ...this.columns]));
    }
    for (const row of rows) lines.push(this.#line([row.kind, ...row.fields]));
    this.screen.write(`${lines.join('\n')}\n`);
  }

  end(): void {
    if (this.boxed && this.#started) this.screen.write(`${this.#rule()}\n`);
  }

  /** Columns are as wide as the header; a longer value widens its column from then on. */
  #widen(cells: readonly string[]): void {
    cells.forEach((c, i) => (this.#widths[i] = Math.max(this.#widths[i] ?? 0, c.length)));
  }

  #line(cells: readonly string[]): string {
    this.#widen(cells);
    const inner = cells.map((c, i) => c.padStart(this.#widths[i]!)).join(' | ');
    return this.boxed ? `| ${inner} |` : inner;
  }

  #rule(): string {
    return `+${this.#widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  }
}
