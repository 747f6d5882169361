import { readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import { describeError, isWeirError } from '@weir/common';
import { SecurityErrorCode } from '@weir/security';
import { JobClient } from '../client/job-client.ts';
import { configuredJobManagerAddress, loadCliConfig } from '../config-args.ts';
import type { CliContext } from '../context.ts';
import type { SecurityCheckArgs } from '../program-security.ts';

const PROBE_TIMEOUT_MS = 3_000;

/** What a call without a token got: answered, refused for want of a token, or not connected at all. */
async function probeGrpc(address: string, ca: Buffer | undefined): Promise<'answered' | 'needs-token' | string> {
  const client = JobClient.connect(address, ca === undefined ? {} : { tls: { ca } });
  try {
    await Promise.race([client.overview(), new Promise((_, reject) => setTimeout(() => reject(new Error('no answer in 3 s')), PROBE_TIMEOUT_MS).unref())]);
    return 'answered';
  } catch (err) {
    return isWeirError(err, SecurityErrorCode.UNAUTHENTICATED) ? 'needs-token' : describeError(err);
  } finally {
    client.close();
  }
}

/** The HTTP status of GET /overview without a token, or why there was none. */
function probeHttp(url: string, ca: Buffer | undefined): Promise<number | string> {
  return new Promise((resolve) => {
    const request = (url.startsWith('https:') ? httpsGet : httpGet)(url, { timeout: PROBE_TIMEOUT_MS, ...(ca === undefined ? {} : { ca }) }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('timeout', () => request.destroy(new Error('no answer in 3 s')));
    // OpenSSL's messages run over several lines: the first says what happened.
    request.on('error', (err) => resolve(err.message.split('\n')[0]!.trim()));
  });
}

/** `weir security check`: connects the way an attacker would (plain text, no token) and the way a client does (TLS), and reports each. */
export async function securityCheckCommand(args: SecurityCheckArgs, context: CliContext): Promise<void> {
  const config = loadCliConfig(args, context.env);
  const address = args.jobManager ?? configuredJobManagerAddress(config);
  const caPath = config['security.ssl.internal.ca'];
  const ca = caPath === '' ? undefined : readFileSync(caPath);
  const line = (ok: boolean, text: string) => context.out(`${ok ? 'protected' : 'EXPOSED  '}  ${text}`);
  const plain = await probeGrpc(address, undefined);
  line(plain !== 'answered' && plain !== 'needs-token', `gRPC ${address} in plain text: ${plain === 'answered' ? 'answered' : plain === 'needs-token' ? 'connected (a token is required, but it travels unencrypted)' : `refused (${plain})`}`);
  if (ca === undefined) context.out(`unknown    gRPC ${address} over TLS: set security.ssl.internal.ca to check it`);
  else {
    const tls = await probeGrpc(address, ca);
    line(tls === 'needs-token', `gRPC ${address} over TLS without a token: ${tls === 'answered' ? 'answered (no authentication)' : tls === 'needs-token' ? 'refused, a token is required' : `failed (${tls})`}`);
  }
  if (args.rest !== undefined) {
    const http = await probeHttp(`http://${args.rest}/overview`, undefined);
    line(typeof http === 'string', `REST http://${args.rest} in plain text: ${typeof http === 'string' ? `refused (${http})` : `answered ${http}`}`);
    const https = await probeHttp(`https://${args.rest}/overview`, ca);
    line(https === 401, `REST https://${args.rest} without a token: ${typeof https === 'string' ? `failed (${https})` : https === 401 ? 'refused 401, a token is required' : `answered ${https}`}`);
  }
}
