import { CommonErrorCode, WeirError } from '../errors.ts';
import { closestKey } from './closest-key.ts';
import type { ConfigEntry } from './entry.ts';
import { ConfigOptions, type ConfigKey } from './options.ts';

/** `WEIR_*` variables that are not config keys: the CLI reads them itself. */
export const NON_KEY_ENV_VARS: readonly string[] = ['WEIR_CONFIG', 'WEIR_LOG_LEVEL', 'WEIR_TOKEN'];

/** The environment variable that sets `key`: `jobmanager.rpc.port` → `WEIR_JOBMANAGER_RPC_PORT`. */
export function envVarName(key: ConfigKey): string {
  return `WEIR_${key.toUpperCase().replace(/[.-]/g, '_')}`;
}

const keyByEnvVar = new Map<string, ConfigKey>(
  (Object.keys(ConfigOptions) as ConfigKey[]).map((key) => [envVarName(key), key]),
);

/** An entry per `WEIR_*` variable in `env`; a variable that names no key is an INVALID_CONFIG error. */
export function readEnv(env: Readonly<Record<string, string | undefined>>): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith('WEIR_') || raw === undefined || NON_KEY_ENV_VARS.includes(name)) continue;
    const key = keyByEnvVar.get(name);
    if (key === undefined) throw unknownEnvVar(name);
    entries.push({ key, raw, origin: `environment variable ${name}` });
  }
  return entries;
}

function unknownEnvVar(name: string): WeirError {
  const suggestion = closestKey(name, [...keyByEnvVar.keys()]);
  const hint =
    suggestion === undefined
      ? `config variables are WEIR_ plus the key in upper case with . and - as _, e.g. ${envVarName('jobmanager.rpc.port')} for jobmanager.rpc.port`
      : `did you mean ${suggestion} (${keyByEnvVar.get(suggestion)})?`;
  return new WeirError(CommonErrorCode.INVALID_CONFIG, `unknown config environment variable ${name}: it sets no config key; ${hint}`);
}
