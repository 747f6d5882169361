import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, isWeirError } from '@weir/common';
import { initClusterSecurity } from '@weir/security';
import { ensureEtcdReachable, openEtcd } from './etcd.ts';
import { haSettingsFromConfig, type HaSettings } from './settings.ts';
import { startEtcd, type EtcdServer } from './testing/etcd-server.ts';

/** etcd over TLS with --client-cert-auth, with `weir security init`'s certificates. */
describe('etcd over TLS with client certificates (high-availability.etcd.tls.*)', () => {
  let etcd: EtcdServer;
  let dir: string;
  let keys: Readonly<Record<string, string>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weir-etcd-tls-'));
    const init = await initClusterSecurity(dir, { hosts: ['localhost'], ips: ['127.0.0.1'] });
    keys = init.keys;
    etcd = await startEtcd({ tls: { ...init.etcd, client: { cert: keys['high-availability.etcd.tls.cert']!, key: keys['high-availability.etcd.tls.key']! } } });
  });
  afterAll(() => etcd?.remove());

  const settings = (tls: Record<string, string>, endpoint = etcd.endpoint): HaSettings =>
    haSettingsFromConfig({ ...defaultConfig(), 'high-availability.type': 'etcd', 'high-availability.etcd.endpoints': endpoint, ...tls }, 'client')!;

  /** Resolves with '' once etcd answered, or with the error code and message it failed with. */
  async function reach(s: HaSettings): Promise<string> {
    let client: ReturnType<typeof openEtcd> | undefined;
    try {
      client = openEtcd(s);
      await ensureEtcdReachable(client, s, 1_500);
      await client.put('/weir/tls-probe').value('ok');
      return '';
    } catch (err) {
      return isWeirError(err) ? `${err.code}` : String(err);
    } finally {
      client?.close();
    }
  }

  it('answers a client that trusts its CA and shows a certificate the CA signed', async () => {
    expect(etcd.endpoint).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const tls = { 'high-availability.etcd.tls.ca': keys['high-availability.etcd.tls.ca']!, 'high-availability.etcd.tls.cert': keys['high-availability.etcd.tls.cert']!, 'high-availability.etcd.tls.key': keys['high-availability.etcd.tls.key']! };
    expect(await reach(settings(tls))).toBe('');
  });

  it('refuses a client without a certificate, one that does not trust its CA, and plaintext', async () => {
    expect(await reach(settings({ 'high-availability.etcd.tls.ca': keys['high-availability.etcd.tls.ca']! }))).toBe('ETCD_UNREACHABLE');
    // A certificate of another CA: etcd does not take it, and the client does not take etcd's.
    const other = await initClusterSecurity(mkdtempSync(join(tmpdir(), 'weir-etcd-other-')), { hosts: ['localhost'], ips: ['127.0.0.1'] });
    expect(await reach(settings({ 'high-availability.etcd.tls.ca': other.keys['high-availability.etcd.tls.ca']!, 'high-availability.etcd.tls.cert': other.keys['high-availability.etcd.tls.cert']!, 'high-availability.etcd.tls.key': other.keys['high-availability.etcd.tls.key']! }))).toBe('ETCD_UNREACHABLE');
    expect(await reach(settings({}, etcd.endpoint.replace('https://', 'http://')))).toBe('ETCD_UNREACHABLE');
  });

  it('refuses at start settings that cannot work, naming the keys and files', () => {
    const error = (config: Record<string, string>) => {
      try {
        openEtcd(settings(config));
        return '';
      } catch (err) {
        return `${(err as { code: string }).code}: ${(err as Error).message}`;
      }
    };
    expect(() => settings({ 'high-availability.etcd.tls.ca': join(dir, 'ca.pem') }, 'http://127.0.0.1:2379')).toThrow(
      'high-availability.type is etcd, but high-availability.etcd.tls.* is set, but http://127.0.0.1:2379 is not https://: give etcd\'s client URLs as https://host:port',
    );
    expect(() => settings({ 'high-availability.etcd.tls.cert': join(dir, 'node.pem') })).toThrow('high-availability.etcd.tls.cert and high-availability.etcd.tls.key go together');
    expect(error({ 'high-availability.etcd.tls.ca': join(dir, 'tokens') })).toMatch(new RegExp(`^SECURITY_FILE_INVALID: ${join(dir, 'tokens')} \\(high-availability.etcd.tls.\\*\\) is not a PEM CA certificate`));
    expect(error({ 'high-availability.etcd.tls.ca': join(dir, 'ca.pem'), 'high-availability.etcd.tls.cert': join(dir, 'node.pem'), 'high-availability.etcd.tls.key': join(dir, 'rest-key.pem') })).toBe(
      `SECURITY_FILE_INVALID: the private key in ${join(dir, 'rest-key.pem')} does not belong to the certificate in ${join(dir, 'node.pem')} (high-availability.etcd.tls.*)`,
    );
  });
});
