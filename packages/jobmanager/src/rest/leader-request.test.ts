import { createServer, type Server } from 'node:https';
import { createCertificateAuthority, issueCertificate } from '@weir/security';
import { afterEach, describe, expect, it } from 'vitest';
import { restCluster } from '../testing/rest-cluster.ts';
import type { ForwardingTls } from './leader-request.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A leader's REST API over HTTPS with a certificate of `ca`, answering every path with the client certificate it was shown. */
async function httpsLeader(ca: { cert: string; key: string }): Promise<string> {
  const rest = await issueCertificate(ca, 'jobmanager', { hosts: ['localhost'], ips: ['127.0.0.1'] }, 'node');
  const server = createServer({ cert: rest.cert, key: rest.key, ca: ca.cert, requestCert: true, rejectUnauthorized: false }, (request, response) => {
    const peer = (request.socket as import('node:tls').TLSSocket).getPeerCertificate();
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ path: request.url, clientCertificate: peer.subject?.CN ?? null }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `https://localhost:${(server.address() as { port: number }).port}`;
}

/** A standby forwarding to `restUrl` with `tls`. */
function standby(restUrl: string, tls: (() => ForwardingTls) | undefined) {
  const { app } = restCluster({}, { target: () => ({ kind: 'leader', address: 'jm-1:6123', restUrl }), self: 'jm-2:6123', timeoutMs: 5_000, ...(tls !== undefined && { tls }) });
  return async (url: string) => {
    const response = await app.inject({ method: 'GET', url });
    await app.close();
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };
}

describe("a standby forwarding to a leader whose REST API is HTTPS (security.ssl.rest.enabled)", () => {
  it("checks the leader's certificate against the cluster's CA and shows its node certificate", { timeout: 60_000 }, async () => {
    const ca = await createCertificateAuthority();
    const node = await issueCertificate(ca, 'jobmanager-2', { hosts: ['localhost'], ips: ['127.0.0.1'] }, 'node');
    const restUrl = await httpsLeader(ca);
    const tls = () => ({ ca: Buffer.from(ca.cert), cert: Buffer.from(node.cert), key: Buffer.from(node.key) });
    expect(await standby(restUrl, tls)('/jobs/overview')).toEqual({ status: 200, body: { path: '/jobs/overview', clientCertificate: 'jobmanager-2' } });
  });

  it('refuses a leader whose certificate another CA signed, or without the CA (503 LEADER_UNREACHABLE)', { timeout: 60_000 }, async () => {
    const ca = await createCertificateAuthority();
    const other = await createCertificateAuthority('another CA');
    const restUrl = await httpsLeader(other);
    for (const tls of [() => ({ ca: Buffer.from(ca.cert) }), undefined]) {
      const answer = await standby(restUrl, tls)('/jobs/overview');
      expect(answer.status).toBe(503);
      expect(answer.body.code).toBe('LEADER_UNREACHABLE');
      expect(String(answer.body.errors)).toMatch(/did not answer at https:\/\/localhost:\d+ \(.*(self-signed|certificate)/);
    }
  });
});
