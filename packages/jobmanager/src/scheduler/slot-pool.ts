/** One slot of a TaskManager, as given to a job: slot i of a job runs subtask i of every vertex. */
export interface Slot {
  readonly taskManagerId: string;
  /** host:port of the TaskManager's DataExchange service. */
  readonly dataAddress: string;
  readonly slotIndex: number;
}

export interface SlotStats {
  readonly free: number;
  readonly total: number;
  readonly taskManagers: number;
}

interface TaskManagerSlots {
  readonly id: string;
  readonly dataAddress: string;
  /** The job holding each slot, undefined when free. */
  readonly owners: (string | undefined)[];
}

/** The slots of every registered TaskManager and which job holds each. */
export class SlotPool {
  /** In registration order, which breaks ties between equally free TaskManagers. */
  readonly #taskManagers = new Map<string, TaskManagerSlots>();

  addTaskManager(id: string, dataAddress: string, slots: number): void {
    this.#taskManagers.set(id, { id, dataAddress, owners: new Array<string | undefined>(slots).fill(undefined) });
  }

  /** The TaskManager's slots go, including those jobs hold. */
  removeTaskManager(id: string): void {
    this.#taskManagers.delete(id);
  }

  /**
   * `count` slots for the job, spread over TaskManagers by always taking the next one from
   * the TaskManager with the most free slots; undefined (and nothing taken) when fewer are free.
   */
  allocate(jobId: string, count: number): Slot[] | undefined {
    if (this.stats().free < count) return undefined;
    const slots: Slot[] = [];
    for (let i = 0; i < count; i++) {
      let best: TaskManagerSlots | undefined;
      let bestFree = 0;
      for (const tm of this.#taskManagers.values()) {
        const free = freeCount(tm);
        if (free > bestFree) {
          best = tm;
          bestFree = free;
        }
      }
      const taskManager = best!;
      const slotIndex = taskManager.owners.indexOf(undefined);
      taskManager.owners[slotIndex] = jobId;
      slots.push({ taskManagerId: taskManager.id, dataAddress: taskManager.dataAddress, slotIndex });
    }
    return slots;
  }

  release(jobId: string): void {
    for (const tm of this.#taskManagers.values()) {
      for (let i = 0; i < tm.owners.length; i++) if (tm.owners[i] === jobId) tm.owners[i] = undefined;
    }
  }

  /** One TaskManager's slots: how many it has, how many are free, and the job holding each (null: free); undefined for one not in the pool. */
  slotsOf(taskManagerId: string): { readonly total: number; readonly free: number; readonly jobs: readonly (string | null)[] } | undefined {
    const tm = this.#taskManagers.get(taskManagerId);
    return tm === undefined ? undefined : { total: tm.owners.length, free: freeCount(tm), jobs: tm.owners.map((owner) => owner ?? null) };
  }

  stats(): SlotStats {
    let free = 0;
    let total = 0;
    for (const tm of this.#taskManagers.values()) {
      free += freeCount(tm);
      total += tm.owners.length;
    }
    return { free, total, taskManagers: this.#taskManagers.size };
  }
}

function freeCount(tm: TaskManagerSlots): number {
  let free = 0;
  for (const owner of tm.owners) if (owner === undefined) free++;
  return free;
}
