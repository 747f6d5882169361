import { describeError, WeirError, type TimerHandle } from '@weir/common';
import type { JobManagerMessage__Output } from '@weir/rpc';
import { TaskManagerErrorCode } from '../errors.ts';
import { Backoff } from './backoff-state.ts';
import { connectOrWait } from './connecting.ts';
import { Closed } from './closed.ts';
import type { ControlContext, ControlState, ControlTimer, HeartbeatTiming, TaskReporter } from './context.ts';
import type { JobManagerSession } from './session.ts';

/** Registered: heartbeats flow both ways and the JobManager deploys and cancels tasks here. */
export class Registered implements ControlState {
  readonly name = 'registered';
  readonly session: JobManagerSession;
  readonly #context: ControlContext;
  readonly #timing: HeartbeatTiming;
  #heartbeatTimer: TimerHandle;
  #silenceTimer: TimerHandle;

  constructor(context: ControlContext, session: JobManagerSession, timing: HeartbeatTiming) {
    this.#context = context;
    this.session = session;
    this.#timing = timing;
    this.#heartbeatTimer = context.startTimer('send-heartbeat', timing.intervalMs);
    this.#silenceTimer = context.startTimer('heartbeat-timeout', timing.timeoutMs);
  }

  onMessage(message: JobManagerMessage__Output): ControlState {
    const { targets, logger } = this.#context;
    if (message.leaderEpoch < targets.highestEpoch) {
      // Fencing: a deposed leader's commands are never obeyed.
      logger.warn({ jobManager: this.session.address, kind: message.kind, leaderEpoch: message.leaderEpoch, currentEpoch: targets.highestEpoch }, 'refused a message of a deposed JobManager leader');
      return this.#lost(new WeirError(TaskManagerErrorCode.JOBMANAGER_UNREACHABLE, `the JobManager at ${this.session.address} was deposed: its epoch ${message.leaderEpoch} is older than ${targets.highestEpoch}`), true);
    }
    targets.observe(message.leaderEpoch);
    // Any message shows the JobManager is alive, not only its heartbeats.
    this.#context.clock.clearTimeout(this.#silenceTimer);
    this.#silenceTimer = this.#context.startTimer('heartbeat-timeout', this.#timing.timeoutMs);
    if (message.kind === 'deploy' && message.deploy) {
      this.#context.tasks.deploy(message.deploy, sessionReporter(this.session));
    } else if (message.kind === 'cancel' && message.cancel) {
      this.#context.tasks.cancel(message.cancel);
    } else if (message.kind === 'triggerCheckpoint' && message.triggerCheckpoint) {
      this.#context.tasks.triggerCheckpoint(message.triggerCheckpoint);
    } else if (message.kind === 'notifyCheckpoint' && message.notifyCheckpoint) {
      this.#context.tasks.notifyCheckpoint(message.notifyCheckpoint);
    } else if (message.kind === 'operatorEvent' && message.operatorEvent) {
      this.#context.tasks.operatorEvent(message.operatorEvent);
    } else if (message.kind !== 'heartbeat') {
      this.#context.logger.debug({ kind: message.kind }, 'ignored a control message');
    }
    return this;
  }

  onSessionClosed(reason: WeirError): ControlState {
    return this.#lost(reason);
  }

  onTimer(timer: ControlTimer): ControlState {
    if (timer === 'send-heartbeat') {
      this.session.send({ heartbeat: { timestampMs: this.#context.clock.now() } });
      this.#heartbeatTimer = this.#context.startTimer('send-heartbeat', this.#timing.intervalMs);
      return this;
    }
    if (timer === 'heartbeat-timeout') {
      return this.#lost(
        new WeirError(
          TaskManagerErrorCode.JOBMANAGER_UNREACHABLE,
          `no heartbeat from the JobManager at ${this.#context.jobManagerAddress} for ${this.#timing.timeoutMs} ms`,
        ),
      );
    }
    return this;
  }

  onLeaderChanged(): ControlState {
    const target = this.#context.targets.current();
    if (target === undefined || (target.address === this.session.address && target.epoch === this.session.epoch)) return this;
    return this.#lost(new WeirError(TaskManagerErrorCode.JOBMANAGER_UNREACHABLE, `a new JobManager leader was elected: epoch ${target.epoch} at ${target.address}`), true);
  }

  close(): ControlState {
    this.session.end();
    return new Closed();
  }

  exit(): void {
    this.#context.clock.clearTimeout(this.#heartbeatTimer);
    this.#context.clock.clearTimeout(this.#silenceTimer);
  }

  /** With `newLeader`, registers with the leader etcd names right away instead of backing off. */
  #lost(reason: WeirError, newLeader = false): ControlState {
    this.session.end();
    this.#context.logger.warn(
      { jobManager: this.session.address, reason: describeError(reason) },
      'lost the JobManager, cancelling all tasks',
    );
    this.#context.tasks.cancelAll();
    return newLeader ? connectOrWait(this.#context) : new Backoff(this.#context, reason);
  }
}

function sessionReporter(session: JobManagerSession): TaskReporter {
  return {
    status: (update) => session.send({ taskStatus: update }),
    acknowledgeCheckpoint: (ack) => session.send({ acknowledgeCheckpoint: ack }),
    declineCheckpoint: (decline) => session.send({ declineCheckpoint: decline }),
    awaitingFinalCheckpoint: (message) => session.send({ awaitingFinalCheckpoint: message }),
    operatorEvent: (event) => session.send({ operatorEvent: event }),
  };
}
