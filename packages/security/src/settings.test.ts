import { defaultConfig } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { securitySettingsFromConfig } from './settings.ts';

describe('securitySettingsFromConfig', () => {
  it('is all off by default', () => {
    expect(securitySettingsFromConfig(defaultConfig())).toEqual({ insecureBindAcknowledged: false, internalTls: undefined, restTls: undefined, prometheusTls: undefined, tokensFile: undefined, jwt: undefined });
  });

  it('names the keys an enabled part is missing', () => {
    expect(() => securitySettingsFromConfig({ ...defaultConfig(), 'security.ssl.internal.enabled': true, 'security.ssl.internal.cert': '/c.pem' })).toThrow(
      'security.ssl.internal.enabled is true, but security.ssl.internal.key, security.ssl.internal.ca are not set',
    );
    expect(() => securitySettingsFromConfig({ ...defaultConfig(), 'security.auth.jwt.jwks': '/jwks.json', 'security.auth.jwt.issuer': 'https://idp' })).toThrow('security.auth.jwt.jwks is set, but security.auth.jwt.audience is not set');
  });

  it("serves Prometheus over HTTPS with the REST certificate only when asked, and needs that certificate", () => {
    const rest = { 'security.ssl.rest.cert': '/rest.pem', 'security.ssl.rest.key': '/rest-key.pem' };
    expect(securitySettingsFromConfig({ ...defaultConfig(), ...rest, 'security.ssl.rest.enabled': true }).prometheusTls).toBeUndefined();
    expect(securitySettingsFromConfig({ ...defaultConfig(), ...rest, 'metrics.reporter.prom.ssl.enabled': true }).prometheusTls).toEqual({ cert: '/rest.pem', key: '/rest-key.pem' });
    expect(() => securitySettingsFromConfig({ ...defaultConfig(), 'metrics.reporter.prom.ssl.enabled': true })).toThrow(
      "metrics.reporter.prom.ssl.enabled is true (the Prometheus endpoints serve the REST API's certificate), but security.ssl.rest.cert, security.ssl.rest.key are not set",
    );
  });

  it('refuses a JWKS fetched in plain text', () => {
    expect(() => securitySettingsFromConfig({ ...defaultConfig(), 'security.auth.jwt.jwks': 'http://idp/jwks', 'security.auth.jwt.issuer': 'i', 'security.auth.jwt.audience': 'a' })).toThrow('give a file path or an https:// URL');
  });
});
