import { isSplitSource, SplitEnumeratorRunner, type JobGraph, type StreamGraph } from '@weir/api';
import { decodeSourceEvent, encodeSourceEvent, parseReaderEvent, WeirError } from '@weir/common';
import {
  bindServer,
  createServer,
  services,
  toServiceError,
  type grpc,
  type AcknowledgeCheckpoint__Output,
  type DeclineCheckpoint__Output,
  type Heartbeat__Output,
  type OperatorEvent__Output,
  type JobManagerMessage,
  type RegisterTaskManager__Output,
  type TaskStatusUpdate__Output,
  type TaskManagerMessage__Output,
  type TaskManagerServiceHandlers,
} from '@weir/rpc';
import { DEFAULT_BUNDLE, DEFAULT_BUNDLE_HASH } from './jobs.ts';

type ControlCall = grpc.ServerDuplexStream<TaskManagerMessage__Output, JobManagerMessage>;

/** One TaskManager's control stream as the fake JobManager sees it. */
export class FakeControlStream {
  readonly received: TaskManagerMessage__Output[] = [];
  cancelled = false;
  readonly #call: ControlCall;

  constructor(call: ControlCall) {
    this.#call = call;
    call.on('data', (message: TaskManagerMessage__Output) => this.received.push(message));
    call.on('cancelled', () => {
      this.cancelled = true;
    });
    call.on('error', () => {
      this.cancelled = true;
    });
  }

  send(message: JobManagerMessage): void {
    this.#call.write(message);
  }

  end(): void {
    this.#call.end();
  }

  get registers(): RegisterTaskManager__Output[] {
    return this.received.flatMap((message) => (message.register ? [message.register] : []));
  }

  get heartbeats(): Heartbeat__Output[] {
    return this.received.flatMap((message) => (message.heartbeat ? [message.heartbeat] : []));
  }

  get statuses(): TaskStatusUpdate__Output[] {
    return this.received.flatMap((message) => (message.taskStatus ? [message.taskStatus] : []));
  }

  get acks(): AcknowledgeCheckpoint__Output[] {
    return this.received.flatMap((message) => (message.acknowledgeCheckpoint ? [message.acknowledgeCheckpoint] : []));
  }

  get declines(): DeclineCheckpoint__Output[] {
    return this.received.flatMap((message) => (message.declineCheckpoint ? [message.declineCheckpoint] : []));
  }

  onMessage(listener: (message: TaskManagerMessage__Output) => void): void {
    this.#call.on('data', listener);
  }
}

/** A JobManager double on a real gRPC server: records control streams and serves bundles by hash. */
export class FakeJobManager {
  readonly streams: FakeControlStream[] = [];
  readonly bundleRequests: string[] = [];
  readonly bundles = new Map<string, Uint8Array>([[DEFAULT_BUNDLE_HASH, DEFAULT_BUNDLE]]);
  readonly #server: grpc.Server;
  #onStream: ((stream: FakeControlStream) => void) | undefined;
  port = 0;

  constructor() {
    this.#server = createServer(64 * 1024 ** 2);
    const handlers: TaskManagerServiceHandlers = {
      Connect: (call) => {
        const stream = new FakeControlStream(call);
        this.streams.push(stream);
        this.#onStream?.(stream);
      },
      FetchBundle: (call, callback) => {
        const hash = call.request.bundleHash;
        this.bundleRequests.push(hash);
        const bundle = this.bundles.get(hash);
        if (bundle === undefined) {
          callback(toServiceError(new WeirError('BUNDLE_NOT_FOUND', `no job bundle with SHA-256 ${hash}`)));
        } else {
          callback(null, { bundle });
        }
      },
    };
    this.#server.addService(services.TaskManagerService, handlers);
  }

  async start(port = 0): Promise<this> {
    this.port = await bindServer(this.#server, '127.0.0.1', port);
    return this;
  }

  get latest(): FakeControlStream {
    const stream = this.streams.at(-1);
    if (stream === undefined) throw new Error('no TaskManager connected yet');
    return stream;
  }

  /**
   * Runs the enumerators of the job's split sources, as the JobManager's source coordinator
   * does: reader events from any TaskManager go to them, their splits go back on the stream
   * the reader's task is on.
   */
  coordinate(graph: StreamGraph, jobGraph: JobGraph): void {
    const runners = new Map<string, SplitEnumeratorRunner>();
    const routes = new Map<string, { stream: FakeControlStream; task: NonNullable<OperatorEvent__Output['task']> }>();
    for (const vertex of jobGraph.vertices) {
      for (const { nodeId, operatorId } of vertex.operators) {
        const spec = graph.nodes[nodeId]!.spec;
        if (spec.kind !== 'source' || !isSplitSource(spec.source)) continue;
        const runner = new SplitEnumeratorRunner(spec.source, {
          parallelism: vertex.parallelism,
          output: (out) => {
            if (out.kind === 'failed') throw out.error;
            const route = routes.get(`${operatorId}/${out.subtask}`)!;
            const event = out.kind === 'add-splits' ? { kind: out.kind, splits: out.splits } : { kind: out.kind };
            route.stream.send({ operatorEvent: { task: route.task, operatorId, event: encodeSourceEvent(event) } });
          },
        });
        runner.start();
        runners.set(operatorId, runner);
      }
    }
    const listen = (stream: FakeControlStream): void =>
      stream.onMessage((message) => {
        const event = message.operatorEvent;
        if (event?.task == null) return;
        const runner = runners.get(event.operatorId);
        const reader = decodeSourceEvent(event.event, parseReaderEvent);
        if (runner === undefined || typeof reader === 'string') return;
        routes.set(`${event.operatorId}/${event.task.subtaskIndex}`, { stream, task: event.task });
        if (reader.kind === 'reader-registered') runner.addReader(event.task.subtaskIndex);
        else runner.handleSplitRequest(event.task.subtaskIndex);
      });
    this.streams.forEach(listen);
    this.#onStream = listen;
  }

  stop(): void {
    this.#server.forceShutdown();
  }
}
