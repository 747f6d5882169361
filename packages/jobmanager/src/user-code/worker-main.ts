import { parentPort, workerData } from 'node:worker_threads';
import { WeirError } from '@weir/common';
import { workerHandlers } from './handlers.ts';
import type { ErrorMessage, RequestMessage, ResponseMessage, WorkerMessage, WorkerSetup } from './protocol.ts';

/*
 * The entry of a job's worker thread: answers the JobManager's requests with the handler of
 * their kind. Anything the job's code leaves behind (a timer that throws, a promise it
 * rejects) ends this thread, and the JobManager fails the job over; never the JobManager.
 */

const port = parentPort!;
const handlers = workerHandlers(workerData as WorkerSetup, (event) => port.postMessage({ type: 'event', event } satisfies WorkerMessage));

port.on('message', (message: RequestMessage) => {
  void answer(message).then((response) => port.postMessage(response));
});
port.postMessage({ type: 'ready' } satisfies WorkerMessage);

async function answer(message: RequestMessage): Promise<ResponseMessage> {
  try {
    const handler = handlers[message.kind] as (payload: unknown) => Promise<unknown>;
    return { type: 'response', id: message.id, ok: true, result: await handler(message.payload) };
  } catch (err) {
    return { type: 'response', id: message.id, ok: false, error: toErrorMessage(err) };
  }
}

function toErrorMessage(err: unknown): ErrorMessage {
  if (err instanceof WeirError) return { code: err.code, message: err.message };
  return { code: undefined, message: err instanceof Error ? (err.stack ?? err.message) : String(err) };
}
