import { systemClock } from '@weir/common';
import type { CliContext } from './context.ts';

export function systemContext(): CliContext {
  return {
    env: process.env,
    clock: systemClock,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  };
}
