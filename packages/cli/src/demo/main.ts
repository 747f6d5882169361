import { runMain } from '../run-main.ts';
import { systemContext } from '../system-context.ts';
import { demo } from './demo.ts';

// `pnpm demo` runs every step; `pnpm demo kafka` only the Kafka one, `pnpm demo postgres` only the PostgreSQL one.
const step = process.argv[2];
await runMain(() => demo(systemContext(), step === 'kafka' || step === 'postgres' ? step : 'all'));
