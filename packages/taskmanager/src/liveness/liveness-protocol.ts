/** What the liveness thread starts with. */
export interface LivenessWorkerData {
  /** One BigInt64: process.hrtime.bigint() when the TaskManager's event loop last ran its beat. */
  readonly beat: SharedArrayBuffer;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** With internal TLS: HTTPS that answers only clients with a certificate the CA signed (the JobManager's). */
  readonly tls?: LivenessTls;
}

/** PEM text of the TaskManager's node certificate, its key and the cluster CA. */
export interface LivenessTls {
  readonly cert: string;
  readonly key: string;
  readonly ca: string;
}

/** What the TaskManager tells the liveness thread: rotated certificate files. */
export type LivenessControlMessage = { readonly kind: 'tls'; readonly tls: LivenessTls };

/** What the liveness thread tells the TaskManager: the port it listens on, or why it cannot. */
export type LivenessWorkerMessage = { readonly kind: 'listening'; readonly port: number } | { readonly kind: 'error'; readonly message: string };
