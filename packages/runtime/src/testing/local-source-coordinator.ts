import { isSplitSource, SplitEnumeratorRunner, type JobGraph, type StreamGraph } from '@weir/api';
import type { ReaderEvent } from '@weir/common';
import type { Task } from '../task/task.ts';

/**
 * The enumerators of a job's split sources for in-process tests, in place of the JobManager's
 * source coordinator: reader events go to the operator's enumerator, what it assigns goes to
 * the subtask's task as enumerator events. A failing enumerator fails the test loudly.
 */
export class LocalSourceCoordinator {
  readonly #runners = new Map<string, SplitEnumeratorRunner>();
  readonly #tasks = new Map<string, Task>();

  constructor(graph: StreamGraph, jobGraph: JobGraph, restored?: (operatorId: string) => unknown) {
    for (const vertex of jobGraph.vertices) {
      for (const { nodeId, operatorId } of vertex.operators) {
        const spec = graph.nodes[nodeId]!.spec;
        if (spec.kind !== 'source' || !isSplitSource(spec.source)) continue;
        const state = restored?.(operatorId);
        const runner = new SplitEnumeratorRunner(spec.source, {
          parallelism: vertex.parallelism,
          ...(state === undefined ? {} : { restored: state }),
          output: (out) => {
            if (out.kind === 'failed') throw out.error;
            const task = this.#tasks.get(`${operatorId}/${out.subtask}`);
            if (out.kind === 'add-splits') task?.dispatchOperatorEvent(operatorId, { kind: 'add-splits', splits: out.splits });
            else task?.dispatchOperatorEvent(operatorId, { kind: 'no-more-splits' });
          },
        });
        runner.start();
        this.#runners.set(operatorId, runner);
      }
    }
  }

  /** What a task's `onOperatorEvent` calls; `task` is the subtask's Task, for the answers. */
  readerEvent(subtask: number, task: () => Task): (operatorId: string, event: ReaderEvent) => void {
    return (operatorId, event) => {
      const runner = this.#runners.get(operatorId);
      if (runner === undefined) throw new Error(`no enumerator for operator ${operatorId}`);
      this.#tasks.set(`${operatorId}/${subtask}`, task());
      if (event.kind === 'reader-registered') runner.addReader(subtask);
      else runner.handleSplitRequest(subtask);
    };
  }

  /** Every enumerator's state, by operator ID, as a checkpoint would keep it. */
  snapshot(checkpointId: number): Map<string, unknown> {
    return new Map([...this.#runners].map(([operatorId, runner]) => [operatorId, runner.snapshot(checkpointId)]));
  }

  async close(): Promise<void> {
    for (const runner of this.#runners.values()) await runner.close();
  }
}
