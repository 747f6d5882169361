import { runMain } from '../run-main.ts';
import { systemContext } from '../system-context.ts';
import { wordCountDemo } from './word-count-demo.ts';

await runMain(() => wordCountDemo(systemContext()));
