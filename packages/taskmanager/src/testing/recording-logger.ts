import type { Logger } from '@weir/common';

export interface LogEntry {
  readonly level: string;
  readonly message: string;
  readonly fields: Record<string, unknown>;
}

/** A stand-in for the pino Logger that keeps every entry, with its child bindings, for assertions. */
export function recordingLogger(entries: LogEntry[] = [], bindings: Record<string, unknown> = {}): Logger & { entries: LogEntry[] } {
  const log =
    (level: string) =>
    (fieldsOrMessage: unknown, message?: string): void => {
      const fields = typeof fieldsOrMessage === 'object' && fieldsOrMessage !== null ? (fieldsOrMessage as Record<string, unknown>) : {};
      const text = typeof fieldsOrMessage === 'string' ? fieldsOrMessage : (message ?? '');
      entries.push({ level, message: text, fields: { ...bindings, ...fields } });
    };
  const logger = {
    entries,
    level: 'debug',
    trace: log('trace'),
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    fatal: log('fatal'),
    child: (more: Record<string, unknown>) => recordingLogger(entries, { ...bindings, ...more }),
  };
  return logger as unknown as Logger & { entries: LogEntry[] };
}
