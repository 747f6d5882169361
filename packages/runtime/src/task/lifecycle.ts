import { TaskState } from '@weir/common';

/**
 * The task's lifecycle, one small class per state; each event returns the next state (the
 * same one when the event changes nothing). DEPLOYING -> INITIALIZING -> RUNNING ->
 * FINISHED | FAILED, and CANCELING -> CANCELED from any live state. Once cancelling, an
 * end or a failure still ends as CANCELED: it is the cancel's side effect.
 */
export abstract class LifecycleState {
  abstract readonly state: TaskState;
  /** `start()` was called. */
  start(): LifecycleState {
    return this;
  }
  /** Operators are open and inputs connected. */
  initialized(): LifecycleState {
    return this;
  }
  /** End of input processed and every end of partition delivered. */
  finished(): LifecycleState {
    return this;
  }
  failed(): LifecycleState {
    return this;
  }
  cancelRequested(): LifecycleState {
    return this;
  }
  /** Cancel's clean-up is done. */
  cleanedUp(): LifecycleState {
    return this;
  }
}

export class Deploying extends LifecycleState {
  readonly state = TaskState.DEPLOYING;
  override start(): LifecycleState {
    return new Initializing();
  }
  override failed(): LifecycleState {
    return new Failed();
  }
  override cancelRequested(): LifecycleState {
    return new Canceled();
  }
}

class Initializing extends LifecycleState {
  readonly state = TaskState.INITIALIZING;
  override initialized(): LifecycleState {
    return new Running();
  }
  override failed(): LifecycleState {
    return new Failed();
  }
  override cancelRequested(): LifecycleState {
    return new Canceling();
  }
}

class Running extends LifecycleState {
  readonly state = TaskState.RUNNING;
  override finished(): LifecycleState {
    return new Finished();
  }
  override failed(): LifecycleState {
    return new Failed();
  }
  override cancelRequested(): LifecycleState {
    return new Canceling();
  }
}

class Canceling extends LifecycleState {
  readonly state = TaskState.CANCELING;
  override finished(): LifecycleState {
    return new Canceled();
  }
  override failed(): LifecycleState {
    return new Canceled();
  }
  override cleanedUp(): LifecycleState {
    return new Canceled();
  }
}

class Finished extends LifecycleState {
  readonly state = TaskState.FINISHED;
}

class Failed extends LifecycleState {
  readonly state = TaskState.FAILED;
}

class Canceled extends LifecycleState {
  readonly state = TaskState.CANCELED;
}
