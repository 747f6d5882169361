import type { Clock, Logger, TimerHandle, WeirError } from '@weir/common';
import type {
  AcknowledgeCheckpoint,
  AwaitingFinalCheckpoint,
  CancelTask__Output,
  DeclineCheckpoint,
  DeployTask__Output,
  JobManagerMessage__Output,
  NotifyCheckpoint__Output,
  OperatorEvent,
  OperatorEvent__Output,
  RegisterTaskManager,
  TaskStatusUpdate,
  TriggerCheckpoint__Output,
} from '@weir/rpc';
import type { ReconnectBackoff } from './backoff.ts';
import type { JobManagerTargets } from './jobmanager-targets.ts';
import type { JobManagerSession } from './session.ts';

export type ControlTimer = 'registration-timeout' | 'send-heartbeat' | 'heartbeat-timeout' | 'reconnect';

export interface HeartbeatTiming {
  readonly intervalMs: number;
  readonly timeoutMs: number;
}

/** What a task sends to the JobManager, on the stream that deployed it; dropped once that stream is gone. */
export interface TaskReporter {
  status(update: TaskStatusUpdate): void;
  acknowledgeCheckpoint(ack: AcknowledgeCheckpoint): void;
  declineCheckpoint(decline: DeclineCheckpoint): void;
  /** The task's input ended and it waits for its final checkpoint. */
  awaitingFinalCheckpoint(message: AwaitingFinalCheckpoint): void;
  /** A split source's reader event, for its enumerator. */
  operatorEvent(event: OperatorEvent): void;
}

/** What the control stream does with the JobManager's task commands. */
export interface TaskControl {
  deploy(message: DeployTask__Output, reporter: TaskReporter): void;
  cancel(message: CancelTask__Output): void;
  /** A task not running here ignores it. */
  triggerCheckpoint(message: TriggerCheckpoint__Output): void;
  /** A task not running here ignores it. */
  notifyCheckpoint(message: NotifyCheckpoint__Output): void;
  /** An enumerator's event for a split source of a task; a task not running here ignores it. */
  operatorEvent(message: OperatorEvent__Output): void;
  /** The JobManager is lost: a TaskManager without one cancels all its tasks. */
  cancelAll(): void;
}

/** What the control-stream states share. */
export interface ControlContext {
  readonly logger: Logger;
  readonly clock: Clock;
  /** The JobManager to register with now, for messages ('no leader' while etcd names none). */
  readonly jobManagerAddress: string;
  readonly targets: JobManagerTargets;
  readonly registration: RegisterTaskManager;
  /** Used until the JobManager's `registered` names its own timing. */
  readonly configuredHeartbeat: HeartbeatTiming;
  readonly backoff: ReconnectBackoff;
  readonly tasks: TaskControl;
  /** Opens a stream to the current target; undefined while there is none (no leader in etcd). */
  openSession(): JobManagerSession | undefined;
  /** Fires `onTimer(timer)` on the state current then. */
  startTimer(timer: ControlTimer, delayMs: number): TimerHandle;
}

export type ControlStateName = 'connecting' | 'registered' | 'backoff' | 'closed';

/** One state of the control stream; every event returns the next state (or this one). */
export interface ControlState {
  readonly name: ControlStateName;
  /** The stream this state listens to; events of any other stream are dropped. */
  readonly session: JobManagerSession | undefined;
  onMessage(message: JobManagerMessage__Output): ControlState;
  onSessionClosed(reason: WeirError): ControlState;
  onTimer(timer: ControlTimer): ControlState;
  /** etcd names a new JobManager leader. */
  onLeaderChanged(): ControlState;
  close(): ControlState;
  /** Called when the machine leaves this state: stop its timers. */
  exit(): void;
}
