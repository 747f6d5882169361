import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initClusterSecurity, PemSource } from '@weir/security';
import { describe, expect, it } from 'vitest';
import { tlsLivenessProbe } from './tls-liveness-probe.ts';

describe('tlsLivenessProbe', () => {
  it('keeps one TLS connection per TaskManager between probes, and connects anew with rotated files', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-liveness-tls-'));
    await initClusterSecurity(dir, { hosts: ['localhost'], ips: ['127.0.0.1'] });
    const files = { cert: join(dir, 'node.pem'), key: join(dir, 'node-key.pem'), ca: join(dir, 'ca.pem') };
    // The TaskManager's side: mutual TLS with the CA, as its liveness endpoint.
    const server = createServer({ cert: readFileSync(files.cert), key: readFileSync(files.key), ca: readFileSync(files.ca), requestCert: true, rejectUnauthorized: true }, (_request, response) => {
      response.end(JSON.stringify({ eventLoopLastRanMsAgo: 7 }));
    });
    let handshakes = 0;
    server.on('secureConnection', () => handshakes++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const source = new PemSource(files, undefined, 50);
    const probe = tlsLivenessProbe(source);
    const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (let i = 0; i < 5; i++) expect(await probe(address, AbortSignal.timeout(10_000))).toEqual({ eventLoopLastRanMsAgo: 7 });
      expect(handshakes).toBe(1);

      const before = source.current;
      await initClusterSecurity(dir, { hosts: ['localhost'], ips: ['127.0.0.1'] });
      await expect.poll(() => source.current !== before, { timeout: 10_000 }).toBe(true);
      expect(await probe(address, AbortSignal.timeout(10_000))).toEqual({ eventLoopLastRanMsAgo: 7 });
      expect(handshakes).toBe(2);
    } finally {
      source.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
