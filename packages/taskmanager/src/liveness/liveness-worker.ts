// The liveness endpoint's thread (liveness-endpoint.ts starts it): nothing but node:http and
// the shared beat, so it starts in milliseconds and never waits for the TaskManager's own
// event loop. Answers GET /liveness with {"eventLoopLastRanMsAgo": N}; with internal TLS over
// HTTPS, only to clients with a certificate the cluster CA signed.
import { createServer, type RequestListener } from 'node:http';
import { createServer as createSecureServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import type { LivenessControlMessage, LivenessWorkerData, LivenessWorkerMessage } from './liveness-protocol.ts';

const { beat, host, port, tls } = workerData as LivenessWorkerData;
const lastBeatNs = new BigInt64Array(beat);

function post(message: LivenessWorkerMessage): void {
  parentPort!.postMessage(message);
}

const answer: RequestListener = (request, response) => {
  if (request.method !== 'GET' || request.url !== '/liveness') {
    response.writeHead(404).end();
    return;
  }
  const sinceNs = process.hrtime.bigint() - Atomics.load(lastBeatNs, 0);
  const body = JSON.stringify({ eventLoopLastRanMsAgo: Math.max(0, Number(sinceNs / 1_000_000n)) });
  response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(body);
};

const server = tls === undefined ? createServer(answer) : createSecureServer({ ...tls, requestCert: true, rejectUnauthorized: true }, answer);
if (tls !== undefined) {
  // Rotated files, re-read by the TaskManager's @weir/security: connections after this use them.
  parentPort!.on('message', (message: LivenessControlMessage) => {
    if (message.kind === 'tls') (server as ReturnType<typeof createSecureServer>).setSecureContext(message.tls);
  });
  parentPort!.unref();
}
server.on('error', (error) => post({ kind: 'error', message: error.message }));
server.listen(port, host, () => post({ kind: 'listening', port: (server.address() as AddressInfo).port }));
