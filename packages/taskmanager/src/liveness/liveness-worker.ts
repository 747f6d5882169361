// The liveness endpoint's thread (liveness-endpoint.ts starts it): nothing but node:http and
// the shared beat, so it starts in milliseconds and never waits for the TaskManager's own
// event loop. Answers GET /liveness with {"eventLoopLastRanMsAgo": N}.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import type { LivenessWorkerData, LivenessWorkerMessage } from './liveness-protocol.ts';

const { beat, host, port } = workerData as LivenessWorkerData;
const lastBeatNs = new BigInt64Array(beat);

function post(message: LivenessWorkerMessage): void {
  parentPort!.postMessage(message);
}

const server = createServer((request, response) => {
  if (request.method !== 'GET' || request.url !== '/liveness') {
    response.writeHead(404).end();
    return;
  }
  const sinceNs = process.hrtime.bigint() - Atomics.load(lastBeatNs, 0);
  const body = JSON.stringify({ eventLoopLastRanMsAgo: Math.max(0, Number(sinceNs / 1_000_000n)) });
  response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(body);
});
server.on('error', (error) => post({ kind: 'error', message: error.message }));
server.listen(port, host, () => post({ kind: 'listening', port: (server.address() as AddressInfo).port }));
