import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { freePort } from '@weir/common';
import { processRegistry, startPrometheusEndpoint } from '@weir/metrics';
import { initClusterSecurity, PemSource } from '@weir/security';
import { describe, expect, it } from 'vitest';

/** The SHA-256 fingerprint of the certificate the TLS server at `port` shows, verified against `ca`. */
function servedFingerprint(port: number, ca: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca, servername: 'localhost' }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.end();
    });
    socket.on('error', reject);
  });
}

// Here rather than in @weir/metrics: the endpoint takes @weir/security's PemSource, as the JobManager passes it.
describe('a Prometheus endpoint with the REST certificate (metrics.reporter.prom.ssl.enabled)', () => {
  it('serves HTTPS only, and shows a rotated certificate to new connections', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-prom-tls-'));
    await initClusterSecurity(dir, { hosts: ['localhost'], ips: ['127.0.0.1'] });
    const ca = readFileSync(join(dir, 'ca.pem'));
    const source = new PemSource({ cert: join(dir, 'rest.pem'), key: join(dir, 'rest-key.pem') }, undefined, 50);
    const endpoint = await startPrometheusEndpoint(String(await freePort()), '127.0.0.1', processRegistry(), { tls: source });
    try {
      const scraped = await fetch(`https://localhost:${endpoint.port}/metrics`, { signal: AbortSignal.timeout(5_000) }).then(
        (response) => response.status,
        (err: Error) => `${err.message}: ${String((err.cause as Error | undefined)?.message)}`,
      );
      // fetch does not know the cluster's CA: the endpoint is TLS, with a certificate only the CA vouches for.
      expect(scraped).toMatch(/certificate/);
      const plain = await fetch(`http://127.0.0.1:${endpoint.port}/metrics`, { signal: AbortSignal.timeout(5_000) }).then(
        (response) => response.status,
        (err: Error) => err.message,
      );
      // Plain HTTP gets no HTTP answer.
      expect(plain).toBeTypeOf('string');
      const first = await servedFingerprint(endpoint.port, ca);
      // weir security init again: same CA, new certificates, picked up without a restart.
      await initClusterSecurity(dir, { hosts: ['localhost'], ips: ['127.0.0.1'] });
      await expect.poll(() => servedFingerprint(endpoint.port, ca), { timeout: 10_000 }).not.toBe(first);
    } finally {
      await endpoint.close();
      source.close();
    }
  });
});
