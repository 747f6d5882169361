import { isIP } from 'node:net';
import { WeirError, type Logger } from '@weir/common';
import { SecurityErrorCode } from './errors.ts';
import { authenticationEnabled, type SecuritySettings } from './settings.ts';

/** What a process listens on, to check before it binds. */
export interface Listener {
  /** Whose listener, for people: `the JobManager's gRPC API`. */
  readonly name: string;
  /** The key that sets its address: `jobmanager.bind-host`. */
  readonly bindKey: string;
  readonly host: string;
  /** What anyone reaching it could do: `submit jobs (run code on the cluster)`. */
  readonly exposes: string;
  /** What protects it: internal mutual TLS, REST TLS, and whether callers must also authenticate. */
  readonly needs: { readonly tls: 'internal' | 'rest'; readonly authentication: boolean };
}

/** localhost, 127.0.0.0/8 and ::1 (also as ::ffff:127.x): only this machine reaches them. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === 'ip6-localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || /^::ffff:127\./.test(h) || h === '0:0:0:0:0:0:0:1';
  return false;
}

/** The keys missing to protect `listener`, empty when it is protected. */
function missingProtection(settings: SecuritySettings, listener: Listener): string[] {
  const missing: string[] = [];
  if (listener.needs.tls === 'internal' && settings.internalTls === undefined) missing.push('security.ssl.internal.enabled: true (with security.ssl.internal.cert, .key, .ca)');
  if (listener.needs.tls === 'rest' && settings.restTls === undefined) missing.push('security.ssl.rest.enabled: true (with security.ssl.rest.cert, .key)');
  if (listener.needs.authentication && !authenticationEnabled(settings)) missing.push('security.auth.tokens-file or security.auth.jwt.jwks (with .issuer, .audience)');
  return missing;
}

/**
 * The start-up check of every process: a listener bound to a non-loopback address without
 * the TLS and authentication that protect it refuses to start (INSECURE_BIND), saying what
 * would be exposed and which keys close it, unless security.insecure-bind-acknowledged is
 * true; then it logs a warning line at every start. Called before anything binds.
 */
export function checkExposure(settings: SecuritySettings, listeners: readonly Listener[], logger: Logger): void {
  const exposed = listeners
    .filter((listener) => !isLoopback(listener.host))
    .map((listener) => ({ listener, missing: missingProtection(settings, listener) }))
    .filter(({ missing }) => missing.length > 0);
  if (exposed.length === 0) return;
  const lines = exposed.map(({ listener, missing }) => `${listener.name} on ${listener.host} (${listener.bindKey}) would let anyone who reaches it ${listener.exposes}; it needs ${missing.join(' and ')}`);
  if (settings.insecureBindAcknowledged) {
    for (const line of lines) logger.warn({ insecureBindAcknowledged: true }, `INSECURE: ${line} (started anyway: security.insecure-bind-acknowledged is true)`);
    return;
  }
  throw new WeirError(
    SecurityErrorCode.INSECURE_BIND,
    `refusing to start: ${lines.join('; ')}. Close it with those keys (weir security init <dir> writes the certificates and a tokens file and prints the keys), bind a loopback address (127.0.0.1), or, on a private network, set security.insecure-bind-acknowledged: true`,
  );
}

/**
 * With authentication on, a Prometheus endpoint asks every scrape for a token; over plain
 * HTTP on a non-loopback address that token crosses the network in clear. The endpoint still
 * starts (as Flink's plain-HTTP reporter does, and Prometheus scrapes http by default): it
 * serves only reads, and a scrape token should be a viewer's. But every start logs a warning
 * naming metrics.reporter.prom.ssl.enabled, which closes it.
 */
export function warnCleartextMetrics(settings: SecuritySettings, host: string, bindKey: string, logger: Logger): void {
  if (!authenticationEnabled(settings) || settings.prometheusTls !== undefined || isLoopback(host)) return;
  logger.warn(
    { host, bindKey },
    `INSECURE: the Prometheus endpoint on ${host} (${bindKey}) is plain HTTP: the token every scrape shows crosses the network in clear. Set metrics.reporter.prom.ssl.enabled: true (it serves security.ssl.rest.cert/.key; Prometheus then scrapes with scheme: https), or give Prometheus a viewer's token only`,
  );
}
