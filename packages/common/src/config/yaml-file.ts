import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CommonErrorCode, WeirError } from '../errors.ts';
import type { ConfigEntry } from './entry.ts';

/**
 * The entries of a config file in Flink's flink-conf.yaml style: `key: value` lines with
 * dotted keys. Nested maps are flattened into dotted keys, so `heartbeat: { timeout: 5s }`
 * is `heartbeat.timeout`.
 */
export function readConfigFile(path: string): ConfigEntry[] {
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new WeirError(CommonErrorCode.INVALID_CONFIG, `config file ${path} does not exist; pass the path of a YAML file with -c/--config or WEIR_CONFIG`);
  }
  let document: unknown;
  try {
    document = yaml().parse(readFileSync(path, 'utf8'), { uniqueKeys: true });
  } catch (err) {
    throw new WeirError(CommonErrorCode.INVALID_CONFIG, `config file ${path} is not valid YAML: ${(err as Error).message}`, { cause: err });
  }
  if (document === null || document === undefined) return [];
  if (!isMap(document)) {
    throw new WeirError(CommonErrorCode.INVALID_CONFIG, `config file ${path} must be a map of \`key: value\` lines, such as \`jobmanager.rpc.port: 6123\``);
  }
  const origin = `file ${path}`;
  const entries = new Map<string, ConfigEntry>();
  for (const [key, raw] of flatten(document, '')) {
    if (entries.has(key)) {
      throw new WeirError(CommonErrorCode.INVALID_CONFIG, `config key ${key} is set twice in ${origin} (once nested, once dotted); keep one`);
    }
    entries.set(key, { key, raw, origin });
  }
  return [...entries.values()];
}

function* flatten(map: Record<string, unknown>, prefix: string): Generator<[string, unknown]> {
  for (const [name, value] of Object.entries(map)) {
    const key = prefix + name;
    if (isMap(value)) yield* flatten(value, `${key}.`);
    else yield [key, value];
  }
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The YAML parser, loaded only when there is a config file to read: it is 70 modules, and most processes start without one. */
function yaml(): typeof import('yaml') {
  return createRequire(import.meta.url)('yaml') as typeof import('yaml');
}
