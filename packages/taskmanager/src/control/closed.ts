import type { ControlState } from './context.ts';

/** The TaskManager is shutting down: nothing reconnects. */
export class Closed implements ControlState {
  readonly name = 'closed';
  readonly session = undefined;

  onMessage(): ControlState {
    return this;
  }

  onSessionClosed(): ControlState {
    return this;
  }

  onTimer(): ControlState {
    return this;
  }

  onLeaderChanged(): ControlState {
    return this;
  }

  close(): ControlState {
    return this;
  }

  exit(): void {}
}
