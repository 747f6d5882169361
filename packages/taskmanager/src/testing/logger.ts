import { createLogger, type Logger } from '@weir/common';

/** A logger that writes nothing, so test output stays readable. */
export function silentLogger(): Logger {
  const logger = createLogger('test');
  logger.level = 'silent';
  return logger;
}
