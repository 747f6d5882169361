import { readFileSync } from 'node:fs';
import { CommonErrorCode, WeirError } from '../errors.ts';
import type { ConfigEntry } from './entry.ts';

/** A whole value `${file:/path}` or `${env:NAME}`. */
const REFERENCE = /^\$\{(file|env):([^}]+)\}$/;

/**
 * An entry whose value is a reference, with the value it names: `${file:/run/secrets/s3-key}`
 * is the file's content (one trailing newline dropped), `${env:S3_SECRET}` the variable's. So
 * a secret can stay out of config files, `-D` arguments (which `ps` shows) and the
 * environment of the process that reads the file. Any other value is returned as it is.
 * Errors name the key and the reference, never what a file holds.
 */
export function resolveReference(entry: ConfigEntry, env: Readonly<Record<string, string | undefined>>): ConfigEntry {
  if (typeof entry.raw !== 'string') return entry;
  const match = REFERENCE.exec(entry.raw.trim());
  if (match === null) return entry;
  const [, kind, name] = match as unknown as [string, 'file' | 'env', string];
  if (kind === 'env') {
    const value = env[name];
    if (value === undefined) throw unresolved(entry, `environment variable ${name} is not set`);
    return { ...entry, raw: value };
  }
  let text: string;
  try {
    text = readFileSync(name, 'utf8');
  } catch (err) {
    throw unresolved(entry, `file ${name} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return { ...entry, raw: text.replace(/\r?\n$/, '') };
}

function unresolved(entry: ConfigEntry, why: string): WeirError {
  return new WeirError(CommonErrorCode.INVALID_CONFIG, `config key ${entry.key} (from ${entry.origin}) refers to a value that is not there: ${why}; give \${file:/absolute/path} of a readable file or \${env:NAME} of a set variable`);
}
