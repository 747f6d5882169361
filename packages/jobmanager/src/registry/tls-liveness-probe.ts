import { Agent, request } from 'node:https';
import type { PemMaterial, PemSource } from '@weir/security';
import { livenessReport, type LivenessProbe } from './liveness-probe.ts';

/** An answer is a few dozen bytes; more is not the endpoint's. */
const MAX_ANSWER_BYTES = 1_024;

/**
 * GET https://<address>/liveness with internal mutual TLS: the JobManager shows its node
 * certificate (the TaskManager's endpoint answers only the cluster's CA-signed certificates)
 * and checks the TaskManager's against the CA. The connection to each TaskManager is kept
 * open between probes: a TLS handshake every second per TaskManager cost enough CPU on a
 * loaded JobManager that probes missed their timeout and a healthy TaskManager was lost. A
 * rotation makes a new agent, so the next probe connects with the new files. node:https
 * rather than fetch: fetch takes no client certificate without an undici Agent of its own.
 */
export function tlsLivenessProbe(tls: PemSource): LivenessProbe {
  let agent: { readonly material: PemMaterial; readonly agent: Agent } | undefined;
  const agentFor = (material: PemMaterial): Agent => {
    if (agent?.material !== material) {
      agent?.agent.destroy();
      const { cert, key, ca } = material;
      agent = { material, agent: new Agent({ keepAlive: true, cert, key, ca }) };
    }
    return agent.agent;
  };
  return (address, signal) =>
    new Promise((resolve, reject) => {
      const material = tls.current;
      const { cert, key, ca } = material;
      // The address was checked to be host:port at registration; the URL is built around it, never from it.
      const url = new URL('https://localhost/liveness');
      url.host = address;
      const probe = request(url, { cert, key, ca, signal, agent: agentFor(material) }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
          if (text.length > MAX_ANSWER_BYTES) response.destroy(new Error(`the liveness endpoint at ${address} answered more than ${MAX_ANSWER_BYTES} bytes`));
        });
        response.on('error', reject);
        response.on('end', () => {
          try {
            resolve(livenessReport(address, response.statusCode ?? 0, text));
          } catch (err) {
            reject(err);
          }
        });
      });
      probe.on('error', reject);
      probe.end();
    });
}
