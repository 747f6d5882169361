import type { Collector } from '@weir/api';

/** One place an operator's output goes: the next operator of the chain, or the record writer of an outgoing edge. */
export interface OutputTarget extends Collector<unknown> {
  emitWatermark(timestamp: number): void;
  emitWatermarkStatus(idle: boolean): void;
}

/**
 * Where an operator's records, side outputs and watermarks go (Flink's Output). Records of
 * the main output go to the main targets; `collectSide(tag, ...)` to the targets reading that
 * side output (none: dropped, as in Flink); watermarks and idleness to every target.
 */
export interface Output extends OutputTarget {
  collectSide(tag: string, record: unknown): void;
}

const NO_TARGETS: readonly OutputTarget[] = Object.freeze([]);

/**
 * Also Flink's CountingOutput: the operator's numRecordsOut (main and side outputs, a record
 * once however many targets get it) and the last watermark it emitted (currentOutputWatermark).
 */
export class OperatorOutput implements Output {
  numRecordsOut = 0;
  currentOutputWatermark = Number.NEGATIVE_INFINITY;
  readonly #main: readonly OutputTarget[];
  readonly #first: OutputTarget | undefined;
  readonly #sides: ReadonlyMap<string, readonly OutputTarget[]>;
  readonly #all: readonly OutputTarget[];

  constructor(main: readonly OutputTarget[], sides: ReadonlyMap<string, readonly OutputTarget[]> = new Map()) {
    this.#main = main;
    this.#first = main.length === 1 ? main[0] : undefined;
    this.#sides = sides;
    this.#all = [...new Set([...main, ...[...sides.values()].flat()])];
  }

  collect(record: unknown): void {
    this.numRecordsOut++;
    const first = this.#first;
    if (first !== undefined) {
      first.collect(record);
      return;
    }
    const main = this.#main;
    for (let i = 0; i < main.length; i++) main[i]!.collect(record);
  }

  collectSide(tag: string, record: unknown): void {
    this.numRecordsOut++;
    const targets = this.#sides.get(tag) ?? NO_TARGETS;
    for (let i = 0; i < targets.length; i++) targets[i]!.collect(record);
  }

  emitWatermark(timestamp: number): void {
    this.currentOutputWatermark = timestamp;
    for (const target of this.#all) target.emitWatermark(timestamp);
  }

  emitWatermarkStatus(idle: boolean): void {
    for (const target of this.#all) target.emitWatermarkStatus(idle);
  }
}

/** An output to nowhere (a sink's). */
export const discardingOutput: Output = new OperatorOutput([]);
