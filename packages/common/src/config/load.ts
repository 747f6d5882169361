import { resolve } from 'node:path';
import { CommonErrorCode, WeirError } from '../errors.ts';
import { closestKey } from './closest-key.ts';
import type { ConfigEntry } from './entry.ts';
import { readEnv } from './env.ts';
import { ConfigOptions, defaultConfig, type ConfigKey, type ConfigOption, type WeirConfig } from './options.ts';
import { accepts, parseValue } from './value-types.ts';
import { resolveReference } from './references.ts';
import { HIDDEN_CONTENT, isSensitiveKey } from './sensitive.ts';
import { readConfigFile } from './yaml-file.ts';

export interface LoadConfigOptions {
  /** A YAML config file; a relative path is resolved against the working directory. It must exist. */
  readonly file?: string;
  /** Usually `process.env`; only `WEIR_*` variables are read. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** `-D key=value` dynamic properties. */
  readonly dynamic?: Readonly<Record<string, string>>;
}

/**
 * The validated configuration. Sources, later wins: defaults, the file, `WEIR_*` environment
 * variables, `-D` properties. A value `${file:/path}` or `${env:NAME}` is what it refers to.
 * An unknown key or a value its type does not accept throws an INVALID_CONFIG WeirError naming
 * the key and where it was set (a sensitive key's value shown as ******).
 */
export function loadConfig(options: LoadConfigOptions = {}): WeirConfig {
  const entries: ConfigEntry[] = [
    ...(options.file === undefined ? [] : readConfigFile(resolve(options.file))),
    ...readEnv(options.env ?? {}),
    ...Object.entries(options.dynamic ?? {}).map(([key, raw]) => ({ key, raw, origin: `-D ${key}=${isSensitiveKey(key) ? HIDDEN_CONTENT : raw}` })),
  ];
  const config: Record<string, string | number | boolean> = { ...defaultConfig() };
  for (const entry of entries) config[entry.key] = validateEntry(resolveReference(entry, options.env ?? {}));
  return Object.freeze(config) as WeirConfig;
}

/** The value of one entry, or INVALID_CONFIG naming the key and where it was set: an unknown key, or a value its type does not accept. */
export function validateEntry(entry: ConfigEntry): string | number | boolean {
  if (!Object.hasOwn(ConfigOptions, entry.key)) throw unknownKey(entry);
  const option: ConfigOption = ConfigOptions[entry.key as ConfigKey];
  const value = parseValue(option.type, entry.raw, option.values);
  if (value === undefined) {
    throw new WeirError(
      CommonErrorCode.INVALID_CONFIG,
      `invalid value ${isSensitiveKey(entry.key) ? HIDDEN_CONTENT : (JSON.stringify(entry.raw) ?? String(entry.raw))} for config key ${entry.key} (from ${entry.origin}): expected ${accepts(option)}`,
    );
  }
  return value;
}

function unknownKey(entry: ConfigEntry): WeirError {
  const keys = Object.keys(ConfigOptions);
  const suggestion = closestKey(entry.key, keys);
  const hint = suggestion === undefined ? `known keys are ${keys.join(', ')}` : `did you mean ${suggestion}?`;
  return new WeirError(CommonErrorCode.INVALID_CONFIG, `unknown config key ${entry.key} (from ${entry.origin}); ${hint}`);
}
