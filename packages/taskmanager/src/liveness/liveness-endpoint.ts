import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '@weir/common';
import { bindFailed } from '@weir/rpc';
import type { PemMaterial, PemSource } from '@weir/security';
import type { LivenessControlMessage, LivenessTls, LivenessWorkerData, LivenessWorkerMessage } from './liveness-protocol.ts';

/** How often the event loop writes its beat: one that runs is never much more than this behind. */
export const BEAT_INTERVAL_MS = 200;

/** The thread serves one small JSON answer at a time. */
const THREAD_HEAP_MB = 16;

/** The endpoint the JobManager's liveness probes ask (GET /liveness); see liveness-worker.ts. */
export interface LivenessEndpoint {
  readonly port: number;
  /** Stops the thread and the beat. */
  close(): Promise<void>;
}

/**
 * Starts the liveness endpoint on host:port (0 picks a free port; a port in use rejects with
 * rpc's BIND_FAILED) in a worker thread, and the beat of this thread's event loop it reports.
 * The thread answers while the event loop is busy (a long synchronous user function, a big
 * restore, a long GC: the worker has a heap of its own), so the JobManager tells a busy
 * TaskManager from a stopped one, which answers nothing, as SIGSTOP stops every thread. With
 * `tls` (internal TLS) it is HTTPS for clients with a CA-signed certificate only, and follows
 * the files' rotation.
 *
 * The beat is process.hrtime, shared through a SharedArrayBuffer, rather than the injected
 * Clock: it is the one clock both threads read alike, and what it measures is real time the
 * loop did not run.
 */
export async function startLivenessEndpoint(host: string, port: number, logger: Logger, tls?: PemSource): Promise<LivenessEndpoint> {
  const beat = new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT);
  const lastBeatNs = new BigInt64Array(beat);
  const writeBeat = (): void => void Atomics.store(lastBeatNs, 0, process.hrtime.bigint());
  writeBeat();
  const workerData: LivenessWorkerData = { beat, host, port, ...(tls === undefined ? {} : { tls: livenessTls(tls.current) }) };
  const thread = new Worker(bootstrapScript(), { eval: true, workerData, resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
  let boundPort: number;
  try {
    boundPort = await new Promise<number>((resolve, reject) => {
      thread.once('message', (message: LivenessWorkerMessage) => {
        if (message.kind === 'listening') resolve(message.port);
        else reject(bindFailed(host, port, new Error(message.message)));
      });
      thread.once('error', reject);
      thread.once('exit', (code) => reject(new Error(`the liveness thread exited with code ${code} before it listened`)));
    });
  } catch (err) {
    await thread.terminate();
    throw err;
  }
  // From a timer: the beat proves the loop gets round to its timers, as heartbeats and flushes need.
  const timer = setInterval(writeBeat, BEAT_INTERVAL_MS);
  timer.unref();
  thread.unref();
  const stopFollowing = tls?.onChange((material) => thread.postMessage({ kind: 'tls', tls: livenessTls(material) } satisfies LivenessControlMessage));
  let closing = false;
  thread.on('error', (err) => logger.error({ err }, 'the liveness endpoint failed: the JobManager will lose this TaskManager'));
  thread.on('exit', (code) => {
    if (!closing) logger.error({ code }, 'the liveness thread exited: the JobManager will lose this TaskManager');
  });
  return {
    port: boundPort,
    close: async () => {
      closing = true;
      clearInterval(timer);
      stopFollowing?.();
      await thread.terminate();
    },
  };
}

/** PEM as text: it crosses to the thread as it is (a Buffer would arrive as a plain Uint8Array). */
function livenessTls(material: PemMaterial): LivenessTls {
  return { cert: material.cert.toString('utf8'), key: material.key.toString('utf8'), ca: material.ca?.toString('utf8') ?? '' };
}

const moduleExtension = extname(fileURLToPath(import.meta.url));

/**
 * The thread's entry is `liveness-worker` beside this module: `src/liveness/liveness-worker.ts`
 * from sources (unit tests), `dist/liveness-worker.js` beside the compiled `dist/index.js`
 * (scripts/build.mjs builds it as an entry of its own). A worker cannot start from a .ts file,
 * since tsx's loader hooks do not reach a worker's entry: from sources it registers tsx first.
 */
function bootstrapScript(): string {
  const entry = new URL(`./liveness-worker${moduleExtension}`, import.meta.url).href;
  const register = moduleExtension === '.ts' ? `(await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})).register();` : '';
  return `(async () => { ${register} await import(${JSON.stringify(entry)}); })();`;
}
