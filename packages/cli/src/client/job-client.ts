import { WeirError, decodeSourceEvent, isWeirError, parseReaderEvent } from '@weir/common';
import {
  createJobServiceClient,
  type ClientTls,
  fromServiceError,
  grpc,
  RpcErrorCode,
  type CancelJobResponse__Output,
  type ClusterOverview__Output,
  type FetchResultsResponse__Output,
  type JobDetails__Output,
  type JobServiceClient,
  type JobStatusUpdate__Output,
  type JobSummary__Output,
  type ListCheckpointsResponse__Output,
  type ListJobsResponse__Output,
  type SubmitJobRequest,
  type SubmitJobResponse__Output,
  type TriggerCheckpointRequest,
  type TriggerCheckpointResponse__Output,
  type TriggerSavepointRequest,
  type TriggerSavepointResponse__Output,
} from '@weir/rpc';
import { CliErrorCode } from '../errors.ts';
import { formatBytes } from '../format/checkpoints.ts';

/** Submitting waits for the JobManager to evaluate the job; other calls are quick lookups. */
const SUBMIT_TIMEOUT_MS = 120_000;
const CALL_TIMEOUT_MS = 15_000;
/** A savepoint of large state can take minutes to write; the command shows progress meanwhile. */
const SAVEPOINT_TIMEOUT_MS = 600_000;
/** Disposing deletes every file of the savepoint, which on S3 is one call per file. */
const DISPOSE_TIMEOUT_MS = 120_000;

/** What one FetchResults brought: rows in order, the job's status, and whether more can come. */
export interface FetchedResults {
  readonly rows: readonly unknown[];
  readonly jobStatus: string;
  readonly endOfResults: boolean;
}

/** The JobService as promises, with the errors a person can act on. */
/** How a client proves who it is: a bearer token (sent as `authorization` metadata) and TLS with the cluster's CA. */
export interface ClientCredentials {
  readonly token?: string;
  readonly tls?: ClientTls;
}

/** The JobManager's gRPC job service, as `weir` calls it (Flink's ClusterClient): submit, list, cancel, savepoints, checkpoints. */
export class JobClient {
  readonly #client: JobServiceClient;
  readonly #token: string | undefined;

  private constructor(
    readonly address: string,
    credentials: ClientCredentials,
  ) {
    this.#client = createJobServiceClient(address, {}, credentials.tls);
    this.#token = credentials.token;
  }

  /** A client of the JobManager at `address` (host:port), with a token and TLS when the cluster is secured. */
  static connect(address: string, credentials: ClientCredentials = {}): JobClient {
    return new JobClient(address, credentials);
  }

  /** Submits a job bundle; BUNDLE_TOO_LARGE when the JobManager refuses its size. */
  async submit(request: SubmitJobRequest): Promise<SubmitJobResponse__Output> {
    try {
      return await this.#unary<SubmitJobResponse__Output>(SUBMIT_TIMEOUT_MS, (options, callback) => this.#client.submitJob(request, this.#metadata(), options, callback));
    } catch (err) {
      if (!isWeirError(err, RpcErrorCode.MESSAGE_TOO_LARGE)) throw err;
      const details = ((err as WeirError).cause as grpc.ServiceError).details;
      throw new WeirError(
        CliErrorCode.BUNDLE_TOO_LARGE,
        `job bundle ${request.entryName} (${formatBytes(request.bundle?.length ?? 0)}) is larger than the JobManager at ${this.address} accepts (${details}); leave large data out of the job (read it at run time), or raise jobmanager.rpc.max-message-size on the JobManager`,
        { cause: err },
      );
    }
  }

  /** Every job the JobManager knows, running or ended. */
  async list(): Promise<JobSummary__Output[]> {
    const response = await this.#unary<ListJobsResponse__Output>(CALL_TIMEOUT_MS, (options, callback) => this.#client.listJobs({}, this.#metadata(), options, callback));
    return response.jobs;
  }

  /** A job's status, vertices and subtasks. */
  get(jobId: string): Promise<JobDetails__Output> {
    return this.#unary(CALL_TIMEOUT_MS, (options, callback) => this.#client.getJob({ jobId }, this.#metadata(), options, callback));
  }

  /** TaskManagers and slots of the cluster. */
  overview(): Promise<ClusterOverview__Output> {
    return this.#unary(CALL_TIMEOUT_MS, (options, callback) => this.#client.getClusterOverview({}, this.#metadata(), options, callback));
  }

  /** Cancels a job; resolves with its status after the request. */
  async cancel(jobId: string): Promise<string> {
    const response = await this.#unary<CancelJobResponse__Output>(CALL_TIMEOUT_MS, (options, callback) => this.#client.cancelJob({ jobId }, this.#metadata(), options, callback));
    return response.status;
  }

  /** The job's checkpoint history, newest first, with its counts. */
  checkpoints(jobId: string): Promise<ListCheckpointsResponse__Output> {
    return this.#unary(CALL_TIMEOUT_MS, (options, callback) => this.#client.listCheckpoints({ jobId }, this.#metadata(), options, callback));
  }

  /** Takes a savepoint (and with `terminate` then ends the job); answers once its `_metadata` is written. */
  triggerSavepoint(request: TriggerSavepointRequest): Promise<TriggerSavepointResponse__Output> {
    return this.#unary(SAVEPOINT_TIMEOUT_MS, (options, callback) => this.#client.triggerSavepoint(request, this.#metadata(), options, callback));
  }

  /** A checkpoint now (Flink's on-demand checkpoint); resolves once it completed, with its ID and path. */
  triggerCheckpoint(request: TriggerCheckpointRequest): Promise<TriggerCheckpointResponse__Output> {
    return this.#unary(SAVEPOINT_TIMEOUT_MS, (options, callback) => this.#client.triggerCheckpoint(request, this.#metadata(), options, callback));
  }

  /** Deletes a savepoint (the directory holding its `_metadata`). */
  async disposeSavepoint(savepointPath: string): Promise<void> {
    await this.#unary(DISPOSE_TIMEOUT_MS, (options, callback) => this.#client.disposeSavepoint({ savepointPath }, this.#metadata(), options, callback));
  }

  /** The job's status now and at every change, until it is terminal. */
  async *watch(jobId: string): AsyncGenerator<JobStatusUpdate__Output> {
    const stream = this.#client.watchJob({ jobId }, this.#metadata());
    try {
      for await (const update of stream) yield update as JobStatusUpdate__Output;
    } catch (err) {
      throw this.#error(err as grpc.ServiceError);
    } finally {
      stream.cancel();
    }
  }

  /** The rows the job's collect sink sent since the last fetch (a SELECT's result); waits up to a second on the JobManager when none are there. */
  async fetchResults(jobId: string): Promise<FetchedResults> {
    const response = await this.#unary<FetchResultsResponse__Output>(CALL_TIMEOUT_MS, (options, callback) => this.#client.fetchResults({ jobId, maxRows: 0 }, this.#metadata(), options, callback));
    const event = decodeSourceEvent(response.rows, parseReaderEvent);
    if (typeof event === 'string' || event.kind !== 'collect-rows') throw new WeirError(CliErrorCode.BAD_RESPONSE, `the JobManager at ${this.address} sent results that are no rows: ${typeof event === 'string' ? event : event.kind}`);
    return { rows: event.rows, jobStatus: response.jobStatus, endOfResults: response.endOfResults };
  }

  /** Closes the connection. */
  close(): void {
    this.#client.close();
  }

  /** Every call's metadata: the token, when there is one. */
  #metadata(): grpc.Metadata {
    const metadata = new grpc.Metadata();
    if (this.#token !== undefined) metadata.set('authorization', `Bearer ${this.#token}`);
    return metadata;
  }

  #unary<T>(
    timeoutMs: number,
    call: (options: grpc.CallOptions, callback: (err: grpc.ServiceError | null, value?: T) => void) => void,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      call({ deadline: Date.now() + timeoutMs }, (err, value) => (err ? reject(this.#error(err)) : resolve(value as T)));
    });
  }

  #error(err: grpc.ServiceError): WeirError {
    const error = fromServiceError(err, this.address);
    if (error.code !== RpcErrorCode.UNAVAILABLE) return error;
    return new WeirError(
      CliErrorCode.JOBMANAGER_UNREACHABLE,
      `cannot reach the JobManager at ${this.address}: is it running? start one with \`pnpm weir cluster start\``,
      { cause: err },
    );
  }
}
