import type { WeirError } from '@weir/common';
import type { JobManagerMessage } from '@weir/rpc';

/** The JobManager's end of one TaskManager's control stream. */
export interface TaskManagerConnection {
  send(message: JobManagerMessage): void;
  /** Ends the stream; with `error`, the TaskManager's call fails with it. Closing twice is harmless. */
  close(error?: WeirError): void;
}

/** What a TaskManager said about itself when it registered. */
export interface TaskManagerInfo {
  readonly id: string;
  /** host:port of its DataExchange service. */
  readonly dataAddress: string;
  readonly slots: number;
  readonly pid: number;
  /** host:port of its liveness endpoint; empty when it has none (heartbeats alone watch it). */
  readonly livenessAddress: string;
}
