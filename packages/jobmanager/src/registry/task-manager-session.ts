import type { Clock, TimerHandle } from '@weir/common';
import type { AcknowledgeCheckpoint__Output, AwaitingFinalCheckpoint__Output, DeclineCheckpoint__Output, MetricsReport__Output, OperatorEvent__Output, PeerUnreachable__Output, TaskManagerMessage__Output, TaskStatusUpdate__Output } from '@weir/rpc';
import type { LivenessWatch } from './liveness-watch.ts';
import type { TaskManagerConnection, TaskManagerInfo } from './task-manager-connection.ts';

export interface SessionEvents {
  heartbeatTimedOut(session: TaskManagerSession): void;
  taskStatus(session: TaskManagerSession, update: TaskStatusUpdate__Output): void;
  acknowledgeCheckpoint(session: TaskManagerSession, message: AcknowledgeCheckpoint__Output): void;
  declineCheckpoint(session: TaskManagerSession, message: DeclineCheckpoint__Output): void;
  awaitingFinalCheckpoint(session: TaskManagerSession, message: AwaitingFinalCheckpoint__Output): void;
  operatorEvent(session: TaskManagerSession, message: OperatorEvent__Output): void;
  metricsReport(session: TaskManagerSession, message: MetricsReport__Output): void;
  /** The TaskManager could not reach another one over a data connection. */
  peerUnreachable(session: TaskManagerSession, message: PeerUnreachable__Output): void;
  closed(session: TaskManagerSession): void;
  unexpected(session: TaskManagerSession, what: string): void;
}

export interface HeartbeatSettings {
  readonly clock: Clock;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  /** heartbeat.probe-interval: time between liveness probes. */
  readonly probeIntervalMs: number;
  /** heartbeat.probe-timeout: how long a liveness probe waits for its answer. */
  readonly probeTimeoutMs: number;
}

/**
 * One registration of a TaskManager: its connection, heartbeats and liveness probes. It
 * sends a heartbeat every interval and reports a timeout when the TaskManager sent nothing
 * for the timeout (any message proves it alive, not only heartbeats); `liveness`, when the
 * TaskManager has a liveness endpoint, probes it from registration to stop.
 */
export class TaskManagerSession {
  #heartbeatTimer: TimerHandle | undefined;
  #timeoutTimer: TimerHandle | undefined;
  #stopped = false;
  /** When the TaskManager registered. */
  readonly registeredAtMs: number;
  /** When the TaskManager last sent anything (a heartbeat or any other message). */
  #lastSeenMs: number;

  constructor(
    readonly info: TaskManagerInfo,
    readonly connection: TaskManagerConnection,
    private readonly heartbeat: HeartbeatSettings,
    private readonly events: SessionEvents,
    readonly liveness: LivenessWatch | undefined,
  ) {
    this.registeredAtMs = heartbeat.clock.now();
    this.#lastSeenMs = this.registeredAtMs;
  }

  get id(): string {
    return this.info.id;
  }

  get lastSeenMs(): number {
    return this.#lastSeenMs;
  }

  /** Confirms the registration and starts the heartbeats. */
  start(): void {
    this.connection.send({
      registered: {
        taskManagerId: this.id,
        heartbeatIntervalMs: this.heartbeat.intervalMs,
        heartbeatTimeoutMs: this.heartbeat.timeoutMs,
      },
    });
    this.#scheduleHeartbeat();
    this.#armTimeout();
    this.liveness?.start();
  }

  /** A message from the TaskManager after its registration. */
  received(message: TaskManagerMessage__Output): void {
    if (this.#stopped) return;
    this.#lastSeenMs = this.heartbeat.clock.now();
    this.#armTimeout();
    if (message.kind === 'taskStatus' && message.taskStatus) this.events.taskStatus(this, message.taskStatus);
    else if (message.kind === 'acknowledgeCheckpoint' && message.acknowledgeCheckpoint) this.events.acknowledgeCheckpoint(this, message.acknowledgeCheckpoint);
    else if (message.kind === 'declineCheckpoint' && message.declineCheckpoint) this.events.declineCheckpoint(this, message.declineCheckpoint);
    else if (message.kind === 'awaitingFinalCheckpoint' && message.awaitingFinalCheckpoint) this.events.awaitingFinalCheckpoint(this, message.awaitingFinalCheckpoint);
    else if (message.kind === 'operatorEvent' && message.operatorEvent) this.events.operatorEvent(this, message.operatorEvent);
    else if (message.kind === 'metricsReport' && message.metricsReport) this.events.metricsReport(this, message.metricsReport);
    else if (message.kind === 'peerUnreachable' && message.peerUnreachable) this.events.peerUnreachable(this, message.peerUnreachable);
    else if (message.kind === 'register') this.events.unexpected(this, 'a second register message on the same stream');
  }

  /** The stream ended or broke. */
  closed(): void {
    if (!this.#stopped) this.events.closed(this);
  }

  stop(): void {
    this.#stopped = true;
    this.liveness?.stop();
    if (this.#heartbeatTimer !== undefined) this.heartbeat.clock.clearTimeout(this.#heartbeatTimer);
    if (this.#timeoutTimer !== undefined) this.heartbeat.clock.clearTimeout(this.#timeoutTimer);
  }

  #scheduleHeartbeat(): void {
    this.#heartbeatTimer = this.heartbeat.clock.setTimeout(() => {
      this.connection.send({ heartbeat: { timestampMs: this.heartbeat.clock.now() } });
      this.#scheduleHeartbeat();
    }, this.heartbeat.intervalMs);
  }

  #armTimeout(): void {
    if (this.#timeoutTimer !== undefined) this.heartbeat.clock.clearTimeout(this.#timeoutTimer);
    this.#timeoutTimer = this.heartbeat.clock.setTimeout(() => this.events.heartbeatTimedOut(this), this.heartbeat.timeoutMs);
  }
}
