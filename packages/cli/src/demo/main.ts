import { runMain } from '../run-main.ts';
import { systemContext } from '../system-context.ts';
import { demo } from './demo.ts';

// `pnpm demo` runs every step; `pnpm demo kafka` only the Kafka one.
await runMain(() => demo(systemContext(), process.argv[2] === 'kafka' ? 'kafka' : 'all'));
