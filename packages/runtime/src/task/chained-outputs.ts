import type { Collector, JobEdge } from '@weir/api';
import type { RecordCodec } from '../codec/record-codec.ts';
import type { ChainOperator } from '../operators/chain-operator.ts';
import { OperatorOutput, type OutputTarget } from '../operators/output.ts';

/**
 * A chained operator as an output target: its (first) input gets the records, the operator
 * the watermarks. Counts them too: the operator's numRecordsIn and currentInputWatermark.
 * Created before its operator (whose metrics read it), connected to it once that exists.
 *
 * The record's timestamp is the task's one RecordTimestamp: every operator that sets it puts
 * the previous one back once it emitted, so a branch of a fork does not change the timestamp
 * the next branch gets.
 */
export class ChainedTarget implements OutputTarget {
  numRecordsIn = 0;
  currentInputWatermark = Number.NEGATIVE_INFINITY;
  #input!: Collector<unknown>;
  #operator!: ChainOperator;

  connect(operator: ChainOperator): void {
    this.#operator = operator;
    this.#input = operator.inputs[0]!;
  }

  collect(record: unknown): void {
    this.numRecordsIn++;
    this.#input.collect(record);
  }

  emitWatermark(timestamp: number): void {
    this.currentInputWatermark = timestamp;
    this.#operator.processWatermark(timestamp);
  }

  emitWatermarkStatus(idle: boolean): void {
    this.#operator.processWatermarkStatus(idle);
  }
}

/**
 * Flink's CopyingChainingOutput: hands the chained operator a copy of each record, as the
 * network would deliver it, so that it cannot change the record another output still reads.
 */
class CopyingTarget implements OutputTarget {
  constructor(
    private readonly target: OutputTarget,
    private readonly codec: RecordCodec,
  ) {}

  collect(record: unknown): void {
    this.target.collect(this.codec.copy(record));
  }

  emitWatermark(timestamp: number): void {
    this.target.emitWatermark(timestamp);
  }

  emitWatermarkStatus(idle: boolean): void {
    this.target.emitWatermarkStatus(idle);
  }
}

interface Entry {
  readonly target: OutputTarget;
  /** A chained operator's, without object reuse: the codec that copies its records when it must not get the original. */
  readonly copier: RecordCodec | undefined;
  readonly chained: boolean;
}

/**
 * An operator's output targets, of its main output and of each side output tag. Where one
 * record goes to a chained operator and to another target, without object reuse, chained
 * operators get copies (Flink's CopyingBroadcastingOutputCollector): all of them when a record
 * writer is among the targets (it keeps the record until its batch is encoded), else all but
 * the last. A single target, or object reuse on, gets the record itself.
 */
export class OutputTargets {
  readonly #main: Entry[] = [];
  readonly #sides = new Map<string, Entry[]>();

  add(tag: JobEdge['outputTag'], target: OutputTarget): void {
    this.#list(tag).push({ target, copier: undefined, chained: false });
  }

  /** `copier` undefined: object reuse is on, the record is never copied. */
  addChained(tag: JobEdge['outputTag'], target: ChainedTarget, copier: RecordCodec | undefined): void {
    this.#list(tag).push({ target, copier, chained: true });
  }

  output(): OperatorOutput {
    return new OperatorOutput(resolve(this.#main), new Map([...this.#sides].map(([tag, entries]) => [tag, resolve(entries)])));
  }

  #list(tag: JobEdge['outputTag']): Entry[] {
    if (tag === undefined) return this.#main;
    let side = this.#sides.get(tag);
    if (side === undefined) this.#sides.set(tag, (side = []));
    return side;
  }
}

function resolve(entries: readonly Entry[]): OutputTarget[] {
  if (entries.length < 2) return entries.map((e) => e.target);
  const lastChained = entries.some((e) => !e.chained) ? undefined : [...entries].reverse().find((e) => e.chained);
  return entries.map((e) => (e.chained && e !== lastChained && e.copier !== undefined ? new CopyingTarget(e.target, e.copier) : e.target));
}
