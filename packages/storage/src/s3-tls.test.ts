import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, isWeirError } from '@weir/common';
import { initClusterSecurity } from '@weir/security';
import { openStorage, s3SettingsFromConfig } from './open-storage.ts';
import type { RetryPolicy } from './retry.ts';
import { startS3rver, type RunningS3rver } from './testing/s3rver.ts';

const ONE_TRY: RetryPolicy = { attempts: 1, initialDelayMs: 10, maxDelayMs: 10 };

/** An S3 endpoint over HTTPS whose certificate a private CA signed (weir security init's REST certificate for 127.0.0.1). */
describe('S3 over HTTPS with a private CA (s3.ssl.ca)', () => {
  let server: RunningS3rver;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weir-s3-tls-'));
    await initClusterSecurity(dir, { hosts: ['localhost'], ips: ['127.0.0.1'] });
    server = await startS3rver({ bucket: 'secure', tls: { cert: readFileSync(join(dir, 'rest.pem')), key: readFileSync(join(dir, 'rest-key.pem')) } });
  });
  afterAll(() => server?.stop());

  const config = (ca: string) => ({ ...defaultConfig(), 's3.endpoint': server.endpoint, 's3.access-key': 'S3RVER', 's3.secret-key': 'S3RVER', 's3.ssl.ca': ca });

  it('writes and reads when s3.ssl.ca names the CA', async () => {
    expect(server.endpoint).toMatch(/^https:\/\//);
    const storage = openStorage('s3://secure/jobs', s3SettingsFromConfig(config(join(dir, 'ca.pem'))), { retry: ONE_TRY });
    try {
      await storage.writeAtomic('a/_metadata', new TextEncoder().encode('{"kind":"savepoint"}'));
      expect(new TextDecoder().decode(await storage.read('a/_metadata'))).toBe('{"kind":"savepoint"}');
    } finally {
      storage.close();
    }
  });

  it('does not trust the endpoint without it: the certificate is refused, nothing is written', async () => {
    const storage = openStorage('s3://secure/jobs', s3SettingsFromConfig(config('')), { retry: ONE_TRY });
    try {
      const err = await storage.writeAtomic('b/_metadata', new Uint8Array([1])).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect(String((err as Error).message)).toMatch(/certificate|self.signed|issuer/i);
    } finally {
      storage.close();
    }
  });

  it('refuses at start an s3.ssl.ca that is not a PEM certificate, naming the key and file', () => {
    const error = (() => {
      try {
        s3SettingsFromConfig(config(join(dir, 'tokens')));
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(isWeirError(error, 'SECURITY_FILE_INVALID')).toBe(true);
    expect((error as Error).message).toMatch(new RegExp(`^${join(dir, 'tokens')} \\(s3\\.ssl\\.ca\\) is not a PEM CA certificate`));
  });
});
