import type { Logger, WeirConfig } from '@weir/common';
import { AuditLog } from './audit-log.ts';
import { Authenticator } from './authenticator.ts';
import { PemSource } from './pem-source.ts';
import { securitySettingsFromConfig, type SecuritySettings } from './settings.ts';

/**
 * What one process holds of security: its settings, the PEM files of internal mutual TLS and
 * of REST (watched for rotation), who callers are (Authenticator) and the audit log. Made
 * once per process from its configuration; each part is made on first use, so a
 * TaskManager never reads a tokens file and a cluster without security reads nothing.
 */
export class ClusterSecurity {
  readonly settings: SecuritySettings;
  #internal: PemSource | undefined;
  #rest: PemSource | undefined;
  #prometheus: PemSource | undefined;
  #authenticator: Authenticator | undefined;
  #audit: AuditLog | undefined;

  constructor(
    config: Parameters<typeof securitySettingsFromConfig>[0],
    private readonly logger: Logger,
  ) {
    this.settings = securitySettingsFromConfig(config);
  }

  static fromConfig(config: WeirConfig, logger: Logger): ClusterSecurity {
    return new ClusterSecurity(config, logger);
  }

  /** The node certificate, key and cluster CA, when security.ssl.internal.enabled. */
  get internalTls(): PemSource | undefined {
    const files = this.settings.internalTls;
    if (files === undefined) return undefined;
    this.#internal ??= new PemSource(files, (err) => this.#reloadFailed('security.ssl.internal.*', err));
    return this.#internal;
  }

  /** The REST server certificate and key, when security.ssl.rest.enabled. */
  get restTls(): PemSource | undefined {
    const files = this.settings.restTls;
    if (files === undefined) return undefined;
    this.#rest ??= new PemSource(files, (err) => this.#reloadFailed('security.ssl.rest.*', err));
    return this.#rest;
  }

  /** The certificate the Prometheus endpoints serve, when metrics.reporter.prom.ssl.enabled: the REST one (one watch of its files when REST is HTTPS too). */
  get prometheusTls(): PemSource | undefined {
    if (this.settings.prometheusTls === undefined) return undefined;
    if (this.settings.restTls !== undefined) return this.restTls;
    this.#prometheus ??= new PemSource(this.settings.prometheusTls, (err) => this.#reloadFailed('security.ssl.rest.* (for metrics.reporter.prom.ssl.enabled)', err));
    return this.#prometheus;
  }

  get authenticator(): Authenticator {
    this.#authenticator ??= new Authenticator(this.settings, (err) => this.#reloadFailed('security.auth.*', err));
    return this.#authenticator;
  }

  get audit(): AuditLog {
    this.#audit ??= new AuditLog(this.logger);
    return this.#audit;
  }

  close(): void {
    this.#internal?.close();
    this.#rest?.close();
    this.#prometheus?.close();
    this.#authenticator?.close();
  }

  #reloadFailed(keys: string, err: unknown): void {
    this.logger.error({ err }, `a changed file of ${keys} was not taken: the ones read before stay in use until it is fixed`);
  }
}
