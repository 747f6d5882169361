import { runMain } from '../run-main.ts';
import { systemContext } from '../system-context.ts';
import { demo } from './demo.ts';

await runMain(() => demo(systemContext()));
