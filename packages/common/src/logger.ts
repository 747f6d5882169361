import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * One JSON line per event on stdout. `bindings` carry the IDs an event belongs to (job,
 * vertex, subtask, checkpoint), so `grep` and log tools can follow one job across processes.
 * The level comes from `WEIR_LOG_LEVEL` (default info); tests set `silent`.
 */
export function createLogger(component: string, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level: process.env.WEIR_LOG_LEVEL ?? 'info',
    base: { component, pid: process.pid, ...bindings },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
