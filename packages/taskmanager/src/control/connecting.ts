import { WeirError, type TimerHandle } from '@weir/common';
import type { JobManagerMessage__Output } from '@weir/rpc';
import { TaskManagerErrorCode } from '../errors.ts';
import { Backoff } from './backoff-state.ts';
import { Closed } from './closed.ts';
import type { ControlContext, ControlState, ControlTimer } from './context.ts';
import { Registered } from './registered.ts';
import type { JobManagerSession } from './session.ts';

/** Opens a stream to the JobManager and registers, or waits in Backoff while etcd names no leader. */
export function connectOrWait(context: ControlContext): ControlState {
  const session = context.openSession();
  if (session === undefined) {
    return new Backoff(context, new WeirError(TaskManagerErrorCode.JOBMANAGER_UNREACHABLE, 'etcd names no JobManager leader right now'));
  }
  return new Connecting(context, session);
}

/** A stream is open and `register` sent; waiting for `registered`. */
export class Connecting implements ControlState {
  readonly name = 'connecting';
  readonly session: JobManagerSession;
  readonly #context: ControlContext;
  readonly #timer: TimerHandle;

  constructor(context: ControlContext, session: JobManagerSession) {
    this.#context = context;
    this.session = session;
    this.session.send({ register: { ...context.registration, leaderEpoch: session.epoch } });
    this.#timer = context.startTimer('registration-timeout', context.configuredHeartbeat.timeoutMs);
  }

  onMessage(message: JobManagerMessage__Output): ControlState {
    if (message.leaderEpoch < this.#context.targets.highestEpoch) {
      return this.#giveUp(
        new WeirError(TaskManagerErrorCode.JOBMANAGER_UNREACHABLE, `the JobManager at ${this.session.address} was deposed: its epoch ${message.leaderEpoch} is older than ${this.#context.targets.highestEpoch}`),
      );
    }
    if (message.kind === 'registered' && message.registered) {
      const { heartbeatIntervalMs, heartbeatTimeoutMs } = message.registered;
      const configured = this.#context.configuredHeartbeat;
      const timing = {
        intervalMs: heartbeatIntervalMs > 0 ? heartbeatIntervalMs : configured.intervalMs,
        timeoutMs: heartbeatTimeoutMs > 0 ? heartbeatTimeoutMs : configured.timeoutMs,
      };
      this.#context.backoff.reset();
      this.#context.targets.observe(message.leaderEpoch);
      this.#context.logger.info(
        { jobManager: this.#context.jobManagerAddress, heartbeatIntervalMs: timing.intervalMs, heartbeatTimeoutMs: timing.timeoutMs },
        'registered with the JobManager',
      );
      return new Registered(this.#context, this.session, timing);
    }
    return this.#giveUp(
      new WeirError(
        TaskManagerErrorCode.CONTROL_PROTOCOL_VIOLATION,
        `the JobManager at ${this.#context.jobManagerAddress} answered register with ${message.kind ?? 'a message of unknown kind'}; it must answer registered first`,
      ),
    );
  }

  onSessionClosed(reason: WeirError): ControlState {
    return new Backoff(this.#context, reason);
  }

  onTimer(timer: ControlTimer): ControlState {
    if (timer !== 'registration-timeout') return this;
    return this.#giveUp(
      new WeirError(
        TaskManagerErrorCode.JOBMANAGER_UNREACHABLE,
        `the JobManager at ${this.#context.jobManagerAddress} did not answer register within ${this.#context.configuredHeartbeat.timeoutMs} ms`,
      ),
    );
  }

  onLeaderChanged(): ControlState {
    const target = this.#context.targets.current();
    if (target === undefined || (target.address === this.session.address && target.epoch === this.session.epoch)) return this;
    this.session.end();
    return connectOrWait(this.#context);
  }

  close(): ControlState {
    this.session.end();
    return new Closed();
  }

  exit(): void {
    this.#context.clock.clearTimeout(this.#timer);
  }

  #giveUp(reason: WeirError): ControlState {
    this.session.end();
    return new Backoff(this.#context, reason);
  }
}
