import { WeirError } from '@weir/common';
import { explainDenial } from './sandbox.ts';
import { workerHandlers, type WorkerHandlers } from './handlers.ts';
import type { ErrorMessage, JobManagerMessage, RequestMessage, ResponseMessage, WorkerMessage } from './protocol.ts';

/*
 * The entry of a job's worker process: answers the JobManager's requests with the handler of
 * their kind. It loads Weir's modules first and then waits for its job (`setup`), so a spare
 * process started ahead has done the slow part. Anything the job's code leaves behind (a timer
 * that throws, a promise it rejects) ends this process, and the JobManager fails the job over;
 * never the JobManager. When the JobManager goes, so does this process.
 */

const send = (message: WorkerMessage): void => {
  process.send!(message);
};
let handlers: WorkerHandlers | undefined;

process.on('message', (message: JobManagerMessage) => {
  if (message.type === 'setup') {
    handlers = workerHandlers(message.setup, (event) => send({ type: 'event', event }));
    send({ type: 'ready' });
  } else {
    void answer(message).then(send);
  }
});
process.on('disconnect', () => process.exit(0));
// Reported before the process ends, so the JobManager can name the cause.
process.on('uncaughtException', (err) => {
  process.send!({ type: 'fatal', message: err.stack ?? err.message } satisfies WorkerMessage, () => process.exit(1));
});

async function answer(message: RequestMessage): Promise<ResponseMessage> {
  try {
    const handler = handlers![message.kind] as (payload: unknown) => Promise<unknown>;
    return { type: 'response', id: message.id, ok: true, result: await handler(message.payload) };
  } catch (err) {
    return { type: 'response', id: message.id, ok: false, error: toErrorMessage(err) };
  }
}

function toErrorMessage(err: unknown): ErrorMessage {
  if (err instanceof WeirError) return { code: err.code, message: explainDenial(err.message) };
  return { code: undefined, message: explainDenial(err instanceof Error ? (err.stack ?? err.message) : String(err)) };
}
