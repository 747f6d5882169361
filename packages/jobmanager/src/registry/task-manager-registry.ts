import { WeirError, durationText, quoteInput, type Logger } from '@weir/common';
import type {
  AcknowledgeCheckpoint__Output,
  AwaitingFinalCheckpoint__Output,
  DeclineCheckpoint__Output,
  MetricsReport__Output,
  OperatorEvent__Output,
  JobManagerMessage,
  PeerUnreachable__Output,
  RegisterTaskManager__Output,
  TaskStatusUpdate__Output,
} from '@weir/rpc';
import { JobManagerErrorCode } from '../errors.ts';
import type { TaskManagerGateway } from '../job/task-manager-gateway.ts';
import { httpLivenessProbe, type LivenessProbe } from './liveness-probe.ts';
import { LivenessWatch, secondsText } from './liveness-watch.ts';
import type { TaskManagerConnection, TaskManagerInfo } from './task-manager-connection.ts';
import { TaskManagerSession, type HeartbeatSettings } from './task-manager-session.ts';

/** Why a TaskManager counts as lost; the text ends the failure cause "TaskManager <id> lost: <reason>". */
export const LossReason = {
  HEARTBEAT_TIMEOUT: 'heartbeat timeout',
  CONNECTION_CLOSED: 'connection closed',
  /** A TaskManager with the same ID registered again after this one went quiet: the old registration is gone. */
  REPLACED: 'registered again',
  /** Its liveness endpoint did not answer the JobManager's probes (the process is stopped, or out of reach). */
  PROBE_UNANSWERED: 'no answer to liveness probes',
  /** Its liveness endpoint answers, but its event loop has not run for heartbeat.timeout. */
  EVENT_LOOP_BLOCKED: 'event loop blocked',
} as const;
export type LossReason = (typeof LossReason)[keyof typeof LossReason];

export interface RegistryListener {
  registered(taskManager: TaskManagerInfo): void;
  lost(taskManager: TaskManagerInfo, cause: WeirError): void;
  taskStatus(taskManagerId: string, update: TaskStatusUpdate__Output): void;
  acknowledgeCheckpoint(taskManagerId: string, message: AcknowledgeCheckpoint__Output): void;
  declineCheckpoint(taskManagerId: string, message: DeclineCheckpoint__Output): void;
  awaitingFinalCheckpoint(taskManagerId: string, message: AwaitingFinalCheckpoint__Output): void;
  operatorEvent(taskManagerId: string, message: OperatorEvent__Output): void;
  metricsReport(taskManagerId: string, message: MetricsReport__Output): void;
}

export interface RegisteredTaskManager extends TaskManagerInfo {
  readonly registeredAtMs: number;
  readonly lastSeenMs: number;
}

/** The connected TaskManagers by ID: registration, heartbeats, loss. */
export class TaskManagerRegistry implements TaskManagerGateway {
  readonly #sessions = new Map<string, TaskManagerSession>();

  /** `probeLiveness` asks a TaskManager's liveness endpoint; tests pass a double. */
  constructor(
    private readonly heartbeat: HeartbeatSettings,
    private readonly logger: Logger,
    private readonly listener: RegistryListener,
    private readonly probeLiveness: LivenessProbe = httpLivenessProbe,
  ) {}

  /**
   * Registers the TaskManager that sent `message` on `connection`. Throws INVALID_REGISTRATION
   * for an incomplete message, and TASK_MANAGER_ID_IN_USE when a TaskManager with the same ID
   * is registered and was heard from within two heartbeat intervals (or is busy, as its
   * liveness endpoint said lately): IDs are public (GET
   * /taskmanagers), and replacing a live TaskManager would hand its slots to whoever asked and
   * restart its jobs. A TaskManager that re-registers after its stream broke retries with
   * backoff, and gets through once the old registration is lost or has been quiet that long.
   */
  register(message: RegisterTaskManager__Output, connection: TaskManagerConnection): TaskManagerSession {
    const info = validate(message);
    const previous = this.#sessions.get(info.id);
    if (previous !== undefined) {
      const quietMs = this.heartbeat.clock.now() - previous.lastSeenMs;
      // A busy TaskManager is quiet but alive: its liveness thread answered lately that its loop is blocked.
      if (quietMs < 2 * this.heartbeat.intervalMs || previous.liveness?.blockedForMs() !== undefined) {
        throw new WeirError(
          JobManagerErrorCode.TASK_MANAGER_ID_IN_USE,
          `TaskManager ID ${quoteInput(info.id)} is in use by a live TaskManager (heard from ${quietMs} ms ago); give this one another taskmanager.resource-id, or stop the other one first`,
        );
      }
      this.#lose(previous, LossReason.REPLACED);
    }
    const session: TaskManagerSession = new TaskManagerSession(info, connection, this.heartbeat, {
      heartbeatTimedOut: (s) => this.#heartbeatTimedOut(s),
      closed: (s) => this.#lose(s, LossReason.CONNECTION_CLOSED),
      taskStatus: (s, update) => this.listener.taskStatus(s.id, update),
      acknowledgeCheckpoint: (s, message) => this.listener.acknowledgeCheckpoint(s.id, message),
      declineCheckpoint: (s, message) => this.listener.declineCheckpoint(s.id, message),
      awaitingFinalCheckpoint: (s, message) => this.listener.awaitingFinalCheckpoint(s.id, message),
      operatorEvent: (s, message) => this.listener.operatorEvent(s.id, message),
      metricsReport: (s, message) => this.listener.metricsReport(s.id, message),
      peerUnreachable: (s, message) => this.#peerUnreachable(s, message),
      unexpected: (s, what) => this.logger.warn({ taskManagerId: s.id }, `ignoring ${what}`),
    }, this.#livenessWatch(info, () => session));
    this.#sessions.set(info.id, session);
    session.start();
    this.logger.info(
      { taskManagerId: info.id, dataAddress: info.dataAddress, livenessAddress: info.livenessAddress, slots: info.slots, tmPid: info.pid },
      'TaskManager registered',
    );
    this.listener.registered(info);
    return session;
  }

  send(taskManagerId: string, message: JobManagerMessage): boolean {
    const session = this.#sessions.get(taskManagerId);
    if (session === undefined) return false;
    session.connection.send(message);
    return true;
  }

  taskManagers(): TaskManagerInfo[] {
    return [...this.#sessions.values()].map((s) => s.info);
  }

  /** The registered TaskManagers with when they registered and were last heard from, in registration order. */
  connected(): RegisteredTaskManager[] {
    return [...this.#sessions.values()].map((s) => ({ ...s.info, registeredAtMs: s.registeredAtMs, lastSeenMs: s.lastSeenMs }));
  }

  /** Stops heartbeats and ends every stream; for shutdown, so nobody is told of losses. */
  close(): void {
    for (const session of this.#sessions.values()) {
      session.stop();
      session.connection.close();
    }
    this.#sessions.clear();
  }

  /** Probes from registration on, when the TaskManager has a liveness endpoint; `session` is the one it watches. */
  #livenessWatch(info: TaskManagerInfo, session: () => TaskManagerSession): LivenessWatch | undefined {
    if (info.livenessAddress === '') return undefined;
    return new LivenessWatch(info.id, info.livenessAddress, this.heartbeat, this.probeLiveness, {
      unanswered: (detail) => this.#lose(session(), LossReason.PROBE_UNANSWERED, detail),
      blocked: (blockedMs) => this.#lose(session(), LossReason.EVENT_LOOP_BLOCKED, `for ${secondsText(blockedMs)}, past heartbeat.timeout (${durationText(this.heartbeat.timeoutMs)})`),
    }, this.logger);
  }

  /** Heartbeats stop while the event loop is blocked: a liveness answer that says so names the cause. */
  #heartbeatTimedOut(session: TaskManagerSession): void {
    const blockedMs = session.liveness?.blockedForMs();
    if (blockedMs === undefined) this.#lose(session, LossReason.HEARTBEAT_TIMEOUT);
    else this.#lose(session, LossReason.EVENT_LOOP_BLOCKED, `for ${secondsText(blockedMs)}, and no heartbeat for heartbeat.timeout (${durationText(this.heartbeat.timeoutMs)})`);
  }

  /**
   * A TaskManager could not reach the one at `dataAddress`: probe that one now rather than at
   * its next liveness probe. One probe at a time per TaskManager.
   */
  #peerUnreachable(reporter: TaskManagerSession, message: PeerUnreachable__Output): void {
    const target = [...this.#sessions.values()].find((s) => s.info.dataAddress === message.dataAddress);
    if (target === undefined || target === reporter) {
      this.logger.debug({ taskManagerId: reporter.id, dataAddress: message.dataAddress }, 'ignoring an unreachable peer that is not registered');
      return;
    }
    const cause = quoteInput(message.cause, 300);
    const probing = target.liveness?.probeNow(`TaskManager ${reporter.id} could not reach it (${cause})`) ?? false;
    if (probing) this.logger.info({ taskManagerId: target.id, reporter: reporter.id, cause }, `probing TaskManager ${target.id}: TaskManager ${reporter.id} could not reach it`);
  }

  #lose(session: TaskManagerSession, reason: LossReason, detail?: string): void {
    if (this.#sessions.get(session.id) !== session) return;
    this.#sessions.delete(session.id);
    session.stop();
    const cause = new WeirError(JobManagerErrorCode.TASK_MANAGER_LOST, `TaskManager ${session.id} lost: ${reason}${detail === undefined ? '' : ` ${detail}`}`);
    session.connection.close(cause);
    this.logger.warn({ taskManagerId: session.id, reason }, cause.message);
    this.listener.lost(session.info, cause);
  }
}

/** IDs and addresses are shown in every status line and log line. */
const MAX_ID_CHARS = 255;
/** Slots are scheduled one by one; nothing needs more. */
const MAX_SLOTS = 4_096;

function validate(message: RegisterTaskManager__Output): TaskManagerInfo {
  const problems: string[] = [];
  if (message.taskManagerId === '') problems.push('task_manager_id is empty');
  else if (message.taskManagerId.length > MAX_ID_CHARS) problems.push(`task_manager_id ${quoteInput(message.taskManagerId)} is longer than ${MAX_ID_CHARS} characters`);
  if (message.dataAddress === '') problems.push('data_address is empty (it must be the host:port of the DataExchange service)');
  else if (message.dataAddress.length > MAX_ID_CHARS) problems.push(`data_address ${quoteInput(message.dataAddress)} is longer than ${MAX_ID_CHARS} characters (it must be the host:port of the DataExchange service)`);
  if (message.livenessAddress.length > MAX_ID_CHARS) problems.push(`liveness_address ${quoteInput(message.livenessAddress)} is longer than ${MAX_ID_CHARS} characters (it must be the host:port of the liveness endpoint)`);
  else if (message.livenessAddress !== '' && !isHostPort(message.livenessAddress)) problems.push(`liveness_address ${quoteInput(message.livenessAddress)} is not host:port (the JobManager builds the probe's URL itself; a path, query, user or scheme is refused)`);
  if (message.slots < 1) problems.push('slots is 0 (a TaskManager must offer at least one slot)');
  else if (message.slots > MAX_SLOTS) problems.push(`slots is ${message.slots}, more than ${MAX_SLOTS}`);
  if (problems.length > 0) {
    throw new WeirError(JobManagerErrorCode.INVALID_REGISTRATION, `invalid TaskManager registration: ${problems.join('; ')}`);
  }
  return { id: message.taskManagerId, dataAddress: message.dataAddress, slots: message.slots, pid: message.pid, livenessAddress: message.livenessAddress };
}

/**
 * `host:port` and nothing else: a DNS name or IPv4 address, or an IPv6 address in brackets,
 * and a port of 1 to 65535. The JobManager fetches http://<address>/liveness every second, so
 * anything more (a path, `?query`, `user@`) would point its probes at another service.
 */
export function isHostPort(address: string): boolean {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?):(\d{1,5})$/.exec(address);
  if (match === null) return false;
  const port = Number(match[2]);
  return port >= 1 && port <= 65_535;
}
