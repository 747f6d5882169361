import { resolve } from 'node:path';

/**
 * The directory the user ran the command in. `pnpm weir …` runs scripts in the repo root
 * and keeps the caller's directory in INIT_CWD, so relative paths resolve against that.
 */
export function userCwd(env: Readonly<Record<string, string | undefined>>): string {
  return env.INIT_CWD ?? process.cwd();
}

export function resolveUserPath(path: string, env: Readonly<Record<string, string | undefined>>): string {
  return resolve(userCwd(env), path);
}
