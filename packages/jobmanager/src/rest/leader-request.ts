import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** The TLS material a standby forwards with: the CA it trusts the leader's REST certificate by, and its node certificate to show. */
export interface ForwardingTls {
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

export interface LeaderAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface LeaderRequest {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: Uint8Array | undefined;
  readonly timeoutMs: number;
  /** Asked at every request, so a rotated CA or certificate is used from the next one on; undefined: the system's CAs, no client certificate. */
  readonly tls: ForwardingTls | undefined;
}

/**
 * One request to the leader's REST API, over HTTPS when its URL says so (security.ssl.rest.enabled):
 * the leader's certificate is checked against the cluster's CA (security.ssl.internal.ca),
 * and the standby shows its node certificate. node:http(s) rather than fetch: fetch takes
 * neither a CA nor a client certificate without an undici Agent of its own.
 */
export function requestLeader(url: URL, options: LeaderRequest): Promise<LeaderAnswer> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const tls = url.protocol === 'https:' && options.tls !== undefined ? { ca: options.tls.ca, cert: options.tls.cert, key: options.tls.key } : {};
    const request = send(url, { method: options.method, headers: options.headers, agent: false, signal: AbortSignal.timeout(options.timeoutMs), ...tls }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => resolve({ status: response.statusCode ?? 502, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end(options.body);
  });
}
