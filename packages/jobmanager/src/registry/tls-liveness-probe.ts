import { request } from 'node:https';
import type { PemSource } from '@weir/security';
import { livenessReport, type LivenessProbe } from './liveness-probe.ts';

/** An answer is a few dozen bytes; more is not the endpoint's. */
const MAX_ANSWER_BYTES = 1_024;

/**
 * GET https://<address>/liveness with internal mutual TLS: the JobManager shows its node
 * certificate (the TaskManager's endpoint answers only the cluster's CA-signed certificates)
 * and checks the TaskManager's against the CA. Each probe takes the current files, so a
 * rotation is used from the next probe on. node:https rather than fetch: fetch takes no
 * client certificate without an undici Agent of its own.
 */
export function tlsLivenessProbe(tls: PemSource): LivenessProbe {
  return (address, signal) =>
    new Promise((resolve, reject) => {
      const { cert, key, ca } = tls.current;
      // The address was checked to be host:port at registration; the URL is built around it, never from it.
      const url = new URL('https://localhost/liveness');
      url.host = address;
      const probe = request(url, { cert, key, ca, signal, agent: false }, (response) => {
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
