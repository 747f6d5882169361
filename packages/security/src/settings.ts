import { WeirError, type WeirConfig } from '@weir/common';
import { SecurityErrorCode } from './errors.ts';

/** The PEM files of mutual TLS inside the cluster. */
export interface InternalTlsFiles {
  readonly cert: string;
  readonly key: string;
  readonly ca: string;
}

/** The PEM files of the REST API's server certificate. */
export interface RestTlsFiles {
  readonly cert: string;
  readonly key: string;
}

export interface JwtSettings {
  /** A file path or an https:// URL. */
  readonly jwks: string;
  readonly issuer: string;
  readonly audience: string;
}

/** The security.* keys, checked to fit together. */
export interface SecuritySettings {
  /** Set when security.ssl.internal.enabled. */
  readonly internalTls?: InternalTlsFiles;
  /** Set when security.ssl.rest.enabled. */
  readonly restTls?: RestTlsFiles;
  /** Set when metrics.reporter.prom.ssl.enabled: the Prometheus endpoints serve HTTPS with the REST certificate. */
  readonly prometheusTls?: RestTlsFiles;
  readonly tokensFile?: string;
  readonly jwt?: JwtSettings;
  readonly insecureBindAcknowledged: boolean;
}

type SecurityConfig = Pick<
  WeirConfig,
  | 'security.ssl.internal.enabled'
  | 'security.ssl.internal.cert'
  | 'security.ssl.internal.key'
  | 'security.ssl.internal.ca'
  | 'security.ssl.rest.enabled'
  | 'security.ssl.rest.cert'
  | 'security.ssl.rest.key'
  | 'security.auth.tokens-file'
  | 'security.auth.jwt.jwks'
  | 'security.auth.jwt.issuer'
  | 'security.auth.jwt.audience'
  | 'security.insecure-bind-acknowledged'
  | 'metrics.reporter.prom.ssl.enabled'
>;

/** Reads the security.* keys; INVALID_SECURITY_CONFIG names every key that is missing for what is enabled. */
export function securitySettingsFromConfig(config: SecurityConfig): SecuritySettings {
  const missing = (keys: readonly (keyof SecurityConfig)[], because: string): void => {
    const empty = keys.filter((key) => config[key] === '');
    if (empty.length > 0) throw new WeirError(SecurityErrorCode.INVALID_SECURITY_CONFIG, `${because}, but ${empty.join(', ')} ${empty.length === 1 ? 'is' : 'are'} not set: give ${empty.length === 1 ? 'it' : 'each'} a PEM file or URL (weir security init <dir> writes them and prints the keys)`);
  };
  let internalTls: InternalTlsFiles | undefined;
  if (config['security.ssl.internal.enabled']) {
    missing(['security.ssl.internal.cert', 'security.ssl.internal.key', 'security.ssl.internal.ca'], 'security.ssl.internal.enabled is true');
    internalTls = { cert: config['security.ssl.internal.cert'], key: config['security.ssl.internal.key'], ca: config['security.ssl.internal.ca'] };
  }
  let restTls: RestTlsFiles | undefined;
  if (config['security.ssl.rest.enabled']) {
    missing(['security.ssl.rest.cert', 'security.ssl.rest.key'], 'security.ssl.rest.enabled is true');
    restTls = { cert: config['security.ssl.rest.cert'], key: config['security.ssl.rest.key'] };
  }
  let prometheusTls: RestTlsFiles | undefined;
  if (config['metrics.reporter.prom.ssl.enabled']) {
    missing(['security.ssl.rest.cert', 'security.ssl.rest.key'], "metrics.reporter.prom.ssl.enabled is true (the Prometheus endpoints serve the REST API's certificate)");
    prometheusTls = { cert: config['security.ssl.rest.cert'], key: config['security.ssl.rest.key'] };
  }
  let jwt: JwtSettings | undefined;
  if (config['security.auth.jwt.jwks'] !== '') {
    missing(['security.auth.jwt.issuer', 'security.auth.jwt.audience'], 'security.auth.jwt.jwks is set');
    const jwks = config['security.auth.jwt.jwks'];
    if (/^[a-z]+:\/\//i.test(jwks) && !jwks.startsWith('https://')) {
      throw new WeirError(SecurityErrorCode.INVALID_SECURITY_CONFIG, `security.auth.jwt.jwks is ${JSON.stringify(jwks)}: give a file path or an https:// URL (keys fetched in plain text could be replaced on the way)`);
    }
    jwt = { jwks, issuer: config['security.auth.jwt.issuer'], audience: config['security.auth.jwt.audience'] };
  }
  const tokensFile = config['security.auth.tokens-file'] === '' ? undefined : config['security.auth.tokens-file'];
  return { internalTls, restTls, prometheusTls, tokensFile, jwt, insecureBindAcknowledged: config['security.insecure-bind-acknowledged'] };
}

/** Whether callers must authenticate: a tokens file or a JWKS is configured. */
export function authenticationEnabled(settings: SecuritySettings): boolean {
  return settings.tokensFile !== undefined || settings.jwt !== undefined;
}
