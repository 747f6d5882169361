import { readFileSync } from 'node:fs';
import { WeirError, describeError, type WeirConfig } from '@weir/common';
import { CliErrorCode } from '../errors.ts';
import type { ClientCredentials } from './job-client.ts';

function readFile(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new WeirError(CliErrorCode.BAD_ARGUMENT, `cannot read ${what} ${path}: ${describeError(err)}`);
  }
}

/**
 * What the weir command authenticates with: the token from `--token-file` or $WEIR_TOKEN
 * (never an argument of its own: `ps` shows arguments to every user of the machine), and
 * TLS verified with the cluster's CA when security.ssl.internal.ca is set.
 */
export function clientCredentials(config: WeirConfig, tokenFile: string | undefined, env: Readonly<Record<string, string | undefined>>): ClientCredentials {
  const fromFile = tokenFile === undefined ? undefined : readFile(tokenFile, 'the token file (--token-file)').toString('utf8').trim();
  if (fromFile === '') throw new WeirError(CliErrorCode.BAD_ARGUMENT, `the token file ${tokenFile} is empty: put the token on its first line`);
  const token = fromFile ?? (env['WEIR_TOKEN'] === '' ? undefined : env['WEIR_TOKEN']);
  const ca = config['security.ssl.internal.ca'];
  return { token, tls: ca === '' ? undefined : { ca: readFile(ca, 'the CA certificate (security.ssl.internal.ca)') } };
}
