/** One JSON log line of a weir process, with its time in ms. */
export interface LogLine {
  readonly at: number;
  readonly msg: string;
  readonly fields: Record<string, unknown>;
}

/** The JSON log lines in a process's output (other lines are skipped). */
export function logLines(output: string): LogLine[] {
  const lines: LogLine[] = [];
  for (const text of output.split('\n')) {
    if (!text.startsWith('{')) continue;
    try {
      const fields = JSON.parse(text) as Record<string, unknown>;
      lines.push({ at: Date.parse(String(fields.time)), msg: String(fields.msg ?? ''), fields });
    } catch {
      // a line cut short
    }
  }
  return lines;
}
