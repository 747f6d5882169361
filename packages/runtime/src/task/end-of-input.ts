import type { CheckpointOptions } from '@weir/common';

/** A checkpoint trigger from the JobManager, handled between two records. */
export interface Trigger {
  readonly checkpointId: number;
  readonly timestamp: number;
  readonly options: CheckpointOptions;
}

/** What the phases act on: the task's checkpointer and its source. */
export interface EndOfInputActions {
  /** A source task (triggers reach it from the JobManager), or a task with network inputs. */
  readonly isSource: boolean;
  /** Takes the checkpoint now, with no barrier to wait for. */
  checkpointNow(trigger: Trigger): void;
  declineNotReady(checkpointId: number, why: string): void;
  /** Ends the source's input (stop --drain): its loop sees the end at the next record, and the final watermark flushes windows and timers. */
  endSourceInput(): void;
  /** Ends the source's input after a stop-with-savepoint `suspend`: without the final watermark, so nothing the savepoint holds fires now. */
  suspendSource(): void;
  /** Tells the JobManager the input ended and the task waits for its final checkpoint: once every task does, it triggers one at once. */
  awaitFinalCheckpoint(): void;
}

/**
 * Where a task is on its way from running input to its end (Flink's FLIP-147 final
 * checkpoint), one small class per phase; each event returns the next phase:
 *
 * Running ─(drain trigger)→ Draining ─┐
 *    └──────────(input ended)─────────┴→ AwaitingFinalCheckpoint ─(a checkpoint taken after the end completed)→ FinalCheckpointDone ─(loop ended)→ Finishing
 *
 * Entering AwaitingFinalCheckpoint, the task tells the JobManager, which triggers the final
 * checkpoint at once when every task waits for it. Without checkpointing the end of input
 * needs no final checkpoint. A task ends its partitions only once `mayFinish`; a drained
 * savepoint is taken once its input ended, so it is the final checkpoint.
 */
export abstract class EndOfInputPhase {
  abstract readonly name: string;
  /** The final checkpoint completed (or none is needed): the task may end its partitions. */
  readonly mayFinish: boolean = false;
  abstract trigger(trigger: Trigger, actions: EndOfInputActions): EndOfInputPhase;
  /** Operators finished and end of data went downstream. */
  inputEnded(_actions: EndOfInputActions): EndOfInputPhase {
    return this;
  }
  /** Checkpoint `checkpointId`'s synchronous part ran (from a trigger or from barriers). */
  snapshotTaken(_checkpointId: number): EndOfInputPhase {
    return this;
  }
  /** Checkpoint `checkpointId` completed and the operators were told (sinks committed it). */
  checkpointCompleted(_checkpointId: number): EndOfInputPhase {
    return this;
  }
  /** The task's loop ended, or the task is torn down: no more checkpoints. */
  finishing(): EndOfInputPhase {
    return new Finishing();
  }
}

/** The input flows. Sources take triggers; other tasks take checkpoints when their barriers arrive. */
export class Running extends EndOfInputPhase {
  readonly name = 'running';

  constructor(private readonly checkpointing: boolean) {
    super();
  }

  trigger(trigger: Trigger, actions: EndOfInputActions): EndOfInputPhase {
    if (!actions.isSource) {
      actions.declineNotReady(trigger.checkpointId, 'its input has not ended (tasks with running producers take checkpoints when their barriers arrive)');
      return this;
    }
    if (trigger.options.terminate === 'drain') {
      actions.endSourceInput();
      return new Draining(trigger, this.checkpointing);
    }
    takeFromSource(trigger, actions);
    return this;
  }

  override inputEnded(actions: EndOfInputActions): EndOfInputPhase {
    if (!this.checkpointing) return new FinalCheckpointDone();
    actions.awaitFinalCheckpoint();
    return new AwaitingFinalCheckpoint(undefined);
  }
}

/** Stop-with-savepoint --drain: the source's input is ending; the savepoint is taken once it ended. */
class Draining extends EndOfInputPhase {
  readonly name = 'draining';

  constructor(
    private readonly savepoint: Trigger,
    private readonly checkpointing: boolean,
  ) {
    super();
  }

  trigger(trigger: Trigger, actions: EndOfInputActions): EndOfInputPhase {
    if (trigger.options.terminate === 'drain') return new Draining(trigger, this.checkpointing);
    takeFromSource(trigger, actions);
    return this;
  }

  override inputEnded(actions: EndOfInputActions): EndOfInputPhase {
    actions.checkpointNow(this.savepoint);
    actions.awaitFinalCheckpoint();
    return new AwaitingFinalCheckpoint(undefined);
  }
}

/** The input ended; the task runs on until a checkpoint taken after that completes. */
class AwaitingFinalCheckpoint extends EndOfInputPhase {
  readonly name = 'awaiting-final-checkpoint';

  /** `firstAfterEnd`: the first checkpoint whose snapshot ran after the end of input. */
  constructor(private readonly firstAfterEnd: number | undefined) {
    super();
  }

  trigger(trigger: Trigger, actions: EndOfInputActions): EndOfInputPhase {
    takeAfterEnd(trigger, actions);
    return this;
  }

  override snapshotTaken(checkpointId: number): EndOfInputPhase {
    return this.firstAfterEnd === undefined ? new AwaitingFinalCheckpoint(checkpointId) : this;
  }

  override checkpointCompleted(checkpointId: number): EndOfInputPhase {
    return this.firstAfterEnd !== undefined && checkpointId >= this.firstAfterEnd ? new FinalCheckpointDone() : this;
  }
}

/** The final checkpoint completed: the task ends once its inputs did; until then it still takes checkpoints. */
class FinalCheckpointDone extends EndOfInputPhase {
  readonly name = 'final-checkpoint-done';
  override readonly mayFinish = true;

  trigger(trigger: Trigger, actions: EndOfInputActions): EndOfInputPhase {
    takeAfterEnd(trigger, actions);
    return this;
  }
}

/** Past the loop: the partitions end, and triggers that come now are declined. */
class Finishing extends EndOfInputPhase {
  readonly name = 'finishing';
  override readonly mayFinish = true;

  trigger(trigger: Trigger, actions: EndOfInputActions): EndOfInputPhase {
    actions.declineNotReady(trigger.checkpointId, 'it has finished');
    return this;
  }

  override finishing(): EndOfInputPhase {
    return this;
  }
}

/** A source takes any trigger between two records; stop-with-savepoint `suspend` then ends its input without another record. */
function takeFromSource(trigger: Trigger, actions: EndOfInputActions): void {
  actions.checkpointNow(trigger);
  if (trigger.options.terminate === 'suspend') actions.suspendSource();
}

/**
 * After the end of input a source takes triggers as before. So does a task whose producers all
 * finished (FLIP-147): no barrier will come, so the JobManager triggers it like a source. A
 * savepoint needs every task running, so such a task declines one.
 */
function takeAfterEnd(trigger: Trigger, actions: EndOfInputActions): void {
  if (actions.isSource) takeFromSource(trigger, actions);
  else if (trigger.options.type === 'checkpoint') actions.checkpointNow(trigger);
  else actions.declineNotReady(trigger.checkpointId, 'its input ended, and a savepoint needs every task running');
}
