import { describeError, type TimerHandle, type WeirError } from '@weir/common';
import { Closed } from './closed.ts';
import { connectOrWait } from './connecting.ts';
import type { ControlContext, ControlState, ControlTimer } from './context.ts';

/** No stream: waiting to try the JobManager again. */
export class Backoff implements ControlState {
  readonly name = 'backoff';
  readonly session = undefined;
  readonly #context: ControlContext;
  readonly #timer: TimerHandle;

  constructor(context: ControlContext, reason: WeirError) {
    this.#context = context;
    const delayMs = context.backoff.next();
    // A JobManager that is not up yet is normal at start: one line per attempt, no stack.
    context.logger.info(
      { jobManager: context.jobManagerAddress, retryInMs: delayMs, reason: describeError(reason) },
      'JobManager not reachable, retrying',
    );
    this.#timer = context.startTimer('reconnect', delayMs);
  }

  onMessage(): ControlState {
    return this;
  }

  onSessionClosed(): ControlState {
    return this;
  }

  onTimer(timer: ControlTimer): ControlState {
    return timer === 'reconnect' ? connectOrWait(this.#context) : this;
  }

  onLeaderChanged(): ControlState {
    return connectOrWait(this.#context);
  }

  close(): ControlState {
    return new Closed();
  }

  exit(): void {
    this.#context.clock.clearTimeout(this.#timer);
  }
}
