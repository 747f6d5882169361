import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initClusterSecurity } from './init-cluster.ts';
import { PemSource, type PemMaterial } from './pem-source.ts';

describe('weir security init and PemSource', () => {
  it('writes a CA and certificates it signed for the names given, keys readable by their owner only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-init-'));
    const result = await initClusterSecurity(dir, { hosts: ['localhost', 'jobmanager'], ips: ['127.0.0.1'] });
    const ca = new X509Certificate(readFileSync(join(dir, 'ca.pem')));
    const node = new X509Certificate(readFileSync(join(dir, 'node.pem')));
    expect(node.verify(ca.publicKey)).toBe(true);
    expect(node.subjectAltName).toBe('DNS:localhost, DNS:jobmanager, IP Address:127.0.0.1');
    expect(node.checkHost('jobmanager')).toBe('jobmanager');
    expect(statSync(join(dir, 'node-key.pem')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'tokens')).mode & 0o777).toBe(0o600);
    expect(result.adminToken).toMatch(/^weir_[\w-]{43}$/);
    const etcd = new X509Certificate(readFileSync(result.etcd.cert));
    expect(etcd.verify(ca.publicKey)).toBe(true);
    expect(etcd.subjectAltName).toBe('DNS:localhost, DNS:jobmanager, DNS:etcd, IP Address:127.0.0.1');
    expect(statSync(result.etcd.key).mode & 0o777).toBe(0o600);
    const etcdClient = new X509Certificate(readFileSync(result.keys['high-availability.etcd.tls.cert']!));
    expect([etcdClient.verify(ca.publicKey), etcdClient.subjectAltName]).toEqual([true, undefined]);
    expect(readFileSync(join(dir, 'tokens'), 'utf8')).not.toContain(result.adminToken);
    await expect(initClusterSecurity(dir, { hosts: [], ips: ['not-an-ip'] })).rejects.toThrow('--ip takes IP addresses; "not-an-ip" is not (give DNS names with --host)');
  });

  it('re-reads rotated files, keeps the last good material while the certificate and key do not match', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-rotate-'));
    await initClusterSecurity(dir, { hosts: ['localhost'], ips: [] });
    const failures: unknown[] = [];
    const source = new PemSource({ cert: join(dir, 'node.pem'), key: join(dir, 'node-key.pem'), ca: join(dir, 'ca.pem') }, (err) => failures.push(err), 50);
    const seen: PemMaterial[] = [];
    source.onChange((material) => seen.push(material));
    const first = source.current.cert.toString();
    const oldKey = readFileSync(join(dir, 'node-key.pem'));
    const renewed = await initClusterSecurity(dir, { hosts: ['localhost'], ips: [] });
    expect(renewed.reusedCa).toBe(true);
    expect(renewed.adminToken).toBeUndefined();
    const deadline = Date.now() + 5_000;
    while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(source.current.cert.toString()).not.toBe(first);
    expect(source.current.cert.toString()).toBe(readFileSync(join(dir, 'node.pem'), 'utf8'));
    // A key of another certificate: refused, the current material stays.
    const current = source.current;
    writeFileSync(join(dir, 'node-key.pem'), oldKey);
    while (failures.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(String(failures[0])).toContain('does not belong to the certificate');
    expect(source.current).toBe(current);
    source.close();
  });
});
