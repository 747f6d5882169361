import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const mainPath = fileURLToPath(new URL('./main.ts', import.meta.url));
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** `node --import tsx main.ts <args>`: how the local cluster starts its JobManager and TaskManagers. */
export function weirCommand(args: readonly string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: ['--import', tsxLoader, mainPath, ...args] };
}
