import { pino, type Logger } from 'pino';

/** A logger that writes nothing, so test output stays readable. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** One log line as a test sees it. */
export interface LogEntry {
  /** trace, debug, info, warn, error or fatal. */
  readonly level: string;
  readonly message: string;
  /** The line's fields, child bindings included. */
  readonly fields: Record<string, unknown>;
}

export interface RecordingLogger {
  readonly logger: Logger;
  /** Every line, in order; it grows as the code logs. */
  readonly entries: LogEntry[];
  /** The message of every warning, in order; it grows as the code logs. */
  readonly warnings: string[];
}

/**
 * A real pino logger (children, bindings and serializers as in production), at every level,
 * whose JSON lines land in `entries` instead of on stdout.
 */
export function recordingLogger(): RecordingLogger {
  const entries: LogEntry[] = [];
  const warnings: string[] = [];
  const logger = pino(
    { level: 'trace', base: undefined, timestamp: false, formatters: { level: (label) => ({ level: label }) } },
    {
      write(line: string): void {
        const { level, msg, ...fields } = JSON.parse(line) as { level: string; msg?: string } & Record<string, unknown>;
        const message = msg ?? '';
        entries.push({ level, message, fields });
        if (level === 'warn') warnings.push(message);
      },
    },
  );
  return { logger, entries, warnings };
}
