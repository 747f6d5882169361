/** What the liveness thread starts with. */
export interface LivenessWorkerData {
  /** One BigInt64: process.hrtime.bigint() when the TaskManager's event loop last ran its beat. */
  readonly beat: SharedArrayBuffer;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
}

/** What the liveness thread tells the TaskManager: the port it listens on, or why it cannot. */
export type LivenessWorkerMessage = { readonly kind: 'listening'; readonly port: number } | { readonly kind: 'error'; readonly message: string };
