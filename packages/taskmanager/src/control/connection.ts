import type { Clock, Logger } from '@weir/common';
import type { RegisterTaskManager, TaskManagerMessage } from '@weir/rpc';
import { ReconnectBackoff } from './backoff.ts';
import { Closed } from './closed.ts';
import { connectOrWait } from './connecting.ts';
import type { JobManagerTargets } from './jobmanager-targets.ts';
import type { ControlContext, ControlState, ControlStateName, HeartbeatTiming, TaskControl } from './context.ts';
import { JobManagerSession } from './session.ts';

export interface JobManagerConnectionOptions {
  readonly targets: JobManagerTargets;
  readonly registration: RegisterTaskManager;
  readonly heartbeat: HeartbeatTiming;
  readonly tasks: TaskControl;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Called each time the TaskManager has registered (again). */
  readonly onRegistered?: () => void;
}

/**
 * The TaskManager's control stream to the JobManager: register, heartbeats, deploy and
 * cancel, and, when the JobManager is lost, cancel every task and reconnect, forever.
 * Each event goes to the current state, which returns the next one.
 */
export class JobManagerConnection {
  readonly #context: ControlContext;
  readonly #onRegistered: (() => void) | undefined;
  #state: ControlState = new Closed();

  constructor(options: JobManagerConnectionOptions) {
    const { targets } = options;
    this.#onRegistered = options.onRegistered;
    this.#context = {
      logger: options.logger,
      clock: options.clock,
      get jobManagerAddress() {
        return targets.current()?.address ?? 'no leader in etcd';
      },
      targets,
      registration: options.registration,
      configuredHeartbeat: options.heartbeat,
      backoff: new ReconnectBackoff(),
      tasks: options.tasks,
      openSession: () => {
        const target = targets.current();
        if (target === undefined) return undefined;
        const session: JobManagerSession = new JobManagerSession(target.client, target.address, target.epoch, {
          onMessage: (message) => this.#dispatch(session, (state) => state.onMessage(message)),
          onClosed: (reason) => this.#dispatch(session, (state) => state.onSessionClosed(reason)),
        });
        return session;
      },
      startTimer: (timer, delayMs) => options.clock.setTimeout(() => this.#transition(this.#state.onTimer(timer)), delayMs),
    };
  }

  get state(): ControlStateName {
    return this.#state.name;
  }

  start(): void {
    this.#transition(connectOrWait(this.#context));
  }

  /** etcd names a new leader: a TaskManager working for an older one leaves it and registers with the new one. */
  leaderChanged(): void {
    this.#transition(this.#state.onLeaderChanged());
  }

  close(): void {
    this.#transition(this.#state.close());
  }

  /** Sends `message` on the stream while registered; drops it otherwise (for periodic reports, which the next one replaces). */
  sendIfRegistered(message: TaskManagerMessage): void {
    if (this.#state.name === 'registered') this.#state.session?.send(message);
  }

  #dispatch(session: JobManagerSession, event: (state: ControlState) => ControlState): void {
    if (this.#state.session !== session) return;
    this.#transition(event(this.#state));
  }

  #transition(next: ControlState): void {
    if (next === this.#state) return;
    this.#state.exit();
    this.#state = next;
    if (next.name === 'registered') this.#onRegistered?.();
  }
}
