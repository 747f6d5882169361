import { WeirError } from '@weir/common';
import {
  fromServiceError,
  type JobManagerMessage__Output,
  type TaskManagerMessage,
  type TaskManagerServiceClient,
  type grpc,
} from '@weir/rpc';
import { TaskManagerErrorCode } from '../errors.ts';

export interface SessionEvents {
  onMessage(message: JobManagerMessage__Output): void;
  /** Called once, when the stream broke or the JobManager ended it; not after `end()`. */
  onClosed(reason: WeirError): void;
}

/** One TaskManagerService.Connect stream. Sends after it closed are dropped. */
export class JobManagerSession {
  readonly #call: grpc.ClientDuplexStream<TaskManagerMessage, JobManagerMessage__Output>;
  #open = true;

  constructor(
    client: TaskManagerServiceClient,
    readonly address: string,
    /** The leader epoch the JobManager had in etcd when this stream was opened (0 without HA). */
    readonly epoch: number,
    events: SessionEvents,
  ) {
    this.#call = client.Connect();
    this.#call.on('data', (message: JobManagerMessage__Output) => {
      if (this.#open) events.onMessage(message);
    });
    this.#call.on('error', (error: grpc.ServiceError) => this.#closed(events, fromServiceError(error, address)));
    this.#call.on('end', () =>
      this.#closed(
        events,
        new WeirError(TaskManagerErrorCode.JOBMANAGER_UNREACHABLE, `the JobManager at ${address} ended the control stream`),
      ),
    );
  }

  get isOpen(): boolean {
    return this.#open;
  }

  send(message: TaskManagerMessage): void {
    if (this.#open) this.#call.write(message);
  }

  /** Closes the stream from this side; no events follow. */
  end(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#call.cancel();
  }

  #closed(events: SessionEvents, reason: WeirError): void {
    if (!this.#open) return;
    this.#open = false;
    events.onClosed(reason);
  }
}
