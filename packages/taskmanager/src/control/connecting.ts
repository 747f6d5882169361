import { WeirError, type TimerHandle } from '@weir/common';
import type { JobManagerMessage__Output } from '@weir/rpc';
import { TaskManagerErrorCode } from '../errors.ts';
import { Backoff } from './backoff-state.ts';
import { Closed } from './closed.ts';
import type { ControlContext, ControlState, ControlTimer } from './context.ts';
import { Registered } from './registered.ts';
import type { JobManagerSession } from './session.ts';

/** A stream is open and `register` sent; waiting for `registered`. */
export class Connecting implements ControlState {
  readonly name = 'connecting';
  readonly session: JobManagerSession;
  readonly #context: ControlContext;
  readonly #timer: TimerHandle;

  constructor(context: ControlContext) {
    this.#context = context;
    this.session = context.openSession();
    this.session.send({ register: context.registration });
    this.#timer = context.startTimer('registration-timeout', context.configuredHeartbeat.timeoutMs);
  }

  onMessage(message: JobManagerMessage__Output): ControlState {
    if (message.kind === 'registered' && message.registered) {
      const { heartbeatIntervalMs, heartbeatTimeoutMs } = message.registered;
      const configured = this.#context.configuredHeartbeat;
      const timing = {
        intervalMs: heartbeatIntervalMs > 0 ? heartbeatIntervalMs : configured.intervalMs,
        timeoutMs: heartbeatTimeoutMs > 0 ? heartbeatTimeoutMs : configured.timeoutMs,
      };
      this.#context.backoff.reset();
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
