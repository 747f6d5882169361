import { ProcessFunction, type Collector, type ProcessContext, type TimeWindow, type WindowAssigner, type WindowAssignerContext } from '@weir/api';
import type { Row } from '../row.ts';

/**
 * A window TVF with nothing above it that consumes windows (Flink's WindowTableFunction): each
 * row once per window it falls in, with window_start, window_end and window_time appended.
 * A processing-time assigner asks the task's processing-time service, as Flink's does, so a
 * job run against a test clock assigns by that clock.
 */
export class WindowTableFunction extends ProcessFunction<Row, Row> {
  readonly #assigner: WindowAssigner<unknown, TimeWindow>;
  readonly #timeIndex: number;
  #context: ProcessContext | undefined;
  readonly #assignerContext: WindowAssignerContext = { getCurrentProcessingTime: () => this.#context!.timerService().currentProcessingTime() };

  constructor(assigner: WindowAssigner<unknown, TimeWindow>, timeIndex: number) {
    super();
    this.#assigner = assigner;
    this.#timeIndex = timeIndex;
  }

  processElement(row: Row, ctx: ProcessContext, out: Collector<Row>): void {
    this.#context = ctx;
    for (const w of this.#assigner.assignWindows(row, row.fields[this.#timeIndex] as number, this.#assignerContext)) {
      out.collect({ kind: row.kind, fields: [...row.fields, w.start, w.end, w.end - 1] });
    }
  }
}
