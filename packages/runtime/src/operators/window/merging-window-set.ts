import type { MergingWindowAssigner, ValueState, Window } from '@weir/api';

/** Told about each merge: the merge result, the windows merged into it, and the state windows whose contents go into `stateWindowResult`. */
export type MergeFunction<W> = (mergeResult: W, mergedWindows: W[], stateWindowResult: W, mergedStateWindows: W[]) => void;

/**
 * The session windows of one key and where each keeps its state (Flink's MergingWindowSet).
 * When windows merge, the contents are not moved to the new window's namespace: the result
 * takes over the state window of one of the windows it merged, and the others' state is
 * merged into it. So `getStateWindow(window)` says under which namespace a window's contents
 * live. Kept in the key's internal state `merging-windows` as [window, state window]
 * namespace pairs; load, change, `persist` within one step of the operator.
 */
export class MergingWindowSet<W extends Window> {
  /** Window namespace -> state window namespace. */
  readonly #mapping: Map<string, string>;

  private constructor(
    private readonly assigner: MergingWindowAssigner<unknown, W>,
    private readonly state: ValueState<[string, string][]>,
    stored: readonly [string, string][],
  ) {
    this.#mapping = new Map(stored);
  }

  /** The current key's set, from its state. */
  static load<W extends Window>(assigner: MergingWindowAssigner<unknown, W>, state: ValueState<[string, string][]>): MergingWindowSet<W> {
    return new MergingWindowSet(assigner, state, state.value() ?? []);
  }

  get size(): number {
    return this.#mapping.size;
  }

  /** The window holding `window`'s contents; undefined when `window` is not in the set (purged already). */
  getStateWindow(window: W): W | undefined {
    const ns = this.#mapping.get(this.assigner.namespaceOf(window));
    return ns === undefined ? undefined : this.assigner.windowOf(ns);
  }

  /** The window is done (purged): forget it. */
  retireWindow(window: W): void {
    this.#mapping.delete(this.assigner.namespaceOf(window));
  }

  /**
   * Adds a new window; when it merges with windows of the set, `merge` is told (before the
   * set forgets the merged windows) and the merge result is returned, else the window itself.
   */
  addWindow(newWindow: W, merge: MergeFunction<W>): W {
    const { assigner } = this;
    const newNs = assigner.namespaceOf(newWindow);
    // Windows of the set never overlap (they merge as they come): a window already there merges with nothing.
    if (this.#mapping.has(newNs)) return newWindow;
    const windows = [...this.#mapping.keys()].map((ns) => assigner.windowOf(ns));
    windows.push(newWindow);
    const merges: { result: W; merged: W[] }[] = [];
    assigner.mergeWindows(windows, { merge: (toBeMerged, mergeResult) => merges.push({ result: mergeResult, merged: toBeMerged }) });

    let resultWindow = newWindow;
    let mergedNewWindow = false;
    for (const { result, merged } of merges) {
      const resultNs = assigner.namespaceOf(result);
      // The new window never had state: what merges is the windows already in the set.
      const existing = merged.filter((w) => assigner.namespaceOf(w) !== newNs);
      if (existing.length !== merged.length) {
        mergedNewWindow = true;
        resultWindow = result;
      }
      const existingNs = existing.map((w) => assigner.namespaceOf(w));
      const stateWindowNs = this.#mapping.get(existingNs[0]!)!;
      const mergedStateWindows: W[] = [];
      for (const ns of existingNs) {
        const stateNs = this.#mapping.get(ns)!;
        this.#mapping.delete(ns);
        if (stateNs !== stateWindowNs) mergedStateWindows.push(assigner.windowOf(stateNs));
      }
      this.#mapping.set(resultNs, stateWindowNs);
      // A window of the set taking in the new window without growing: nothing to merge.
      if (!(existing.length === 1 && existingNs[0] === resultNs)) merge(result, existing, assigner.windowOf(stateWindowNs), mergedStateWindows);
    }
    if (!mergedNewWindow) this.#mapping.set(newNs, newNs);
    return resultWindow;
  }

  persist(): void {
    if (this.#mapping.size === 0) this.state.clear();
    else this.state.update([...this.#mapping]);
  }
}
