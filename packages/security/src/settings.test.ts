import { defaultConfig } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { securitySettingsFromConfig } from './settings.ts';

describe('securitySettingsFromConfig', () => {
  it('is all off by default', () => {
    expect(securitySettingsFromConfig(defaultConfig())).toEqual({ insecureBindAcknowledged: false, internalTls: undefined, restTls: undefined, tokensFile: undefined, jwt: undefined });
  });

  it('names the keys an enabled part is missing', () => {
    expect(() => securitySettingsFromConfig({ ...defaultConfig(), 'security.ssl.internal.enabled': true, 'security.ssl.internal.cert': '/c.pem' })).toThrow(
      'security.ssl.internal.enabled is true, but security.ssl.internal.key, security.ssl.internal.ca are not set',
    );
    expect(() => securitySettingsFromConfig({ ...defaultConfig(), 'security.auth.jwt.jwks': '/jwks.json', 'security.auth.jwt.issuer': 'https://idp' })).toThrow('security.auth.jwt.jwks is set, but security.auth.jwt.audience is not set');
  });

  it('refuses a JWKS fetched in plain text', () => {
    expect(() => securitySettingsFromConfig({ ...defaultConfig(), 'security.auth.jwt.jwks': 'http://idp/jwks', 'security.auth.jwt.issuer': 'i', 'security.auth.jwt.audience': 'a' })).toThrow('give a file path or an https:// URL');
  });
});
