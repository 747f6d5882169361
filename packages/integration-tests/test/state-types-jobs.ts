/** The job of state-types.test.ts, as source text. */

import { PAUSING_SOURCE } from './pausing-source.ts';
import { RICH_VALUES } from './rich-values.ts';

/** Records each run's source emits; every key and every list entry is one of them. */
export const STATE_RECORDS = 300;

/**
 * Keeps values holding everything a record keeps (Map with object keys, Set, Uint8Array apart
 * from Buffer, Date, BigInt over 64 bits, -0, holes, prototype-less objects) in keyed
 * ValueState and MapState and in an operator ListState, then checks them after a restore.
 * args: 'write' | 'check', 'heap' | 'level', checkpoint directory, output directory.
 * - write: a source that goes quiet after its records (the test stops the job with a
 *   savepoint); each value is read back as it is written, which on LevelDB goes through the
 *   state codec.
 * - check: a bounded source of the same records (run with -n: the first source's position is
 *   not restored); each key's restored values are checked and reported as
 *   'value <i>' and 'map <i>', each restored list entry as 'list <i>'. A changed value fails
 *   the job naming what changed.
 */
export const STATE_TYPES_JOB = `
import { StreamExecutionEnvironment, KeyedProcessFunction, RichFlatMapFunction, ValueStateDescriptor, MapStateDescriptor, ListStateDescriptor,
  Types, Boundedness, InputStatus, FsStateBackend, LevelStateBackend, type ReaderOutput, type SourceReaderContext, type SplitEnumeratorContext,
  type SplitSource, type SplitSourceReader, type Collector, type KeyedProcessContext, type ValueState, type MapState, type ListState,
  type CheckpointedFunction, type FunctionInitializationContext } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, FileSink, SimpleStringEncoder, type GeneratorSplit } from '@weir/connectors';

${PAUSING_SOURCE}

${RICH_VALUES}

/** Throws naming what changed in the value that should be rich(i). */
function check(what: string, i: number, r: any): void {
  if (r === undefined || r === null) throw new Error(what + ' of ' + i + ' is missing');
  const wrong = richProblems(r, i);
  if (wrong.length > 0) throw new Error(what + ' of ' + i + ' changed: ' + wrong.join('; '));
}

type Item = { kind: 'key' | 'list'; i: number };

/** Keeps every record it saw in operator list state; after a restore, reports (and checks) each restored entry once. */
class Remember extends RichFlatMapFunction<number, Item> implements CheckpointedFunction {
  private list!: ListState<any>;
  private seen: any[] = [];
  private restored: any[] = [];
  constructor(private readonly writing: boolean) { super(); }
  initializeState(context: FunctionInitializationContext): void {
    this.list = context.getOperatorStateStore().getListState(new ListStateDescriptor('seen', Types.GENERIC()));
    if (context.isRestored()) this.restored = [...this.list.get()];
  }
  snapshotState(): void {
    this.list.update(this.writing ? this.seen : []);
  }
  flatMap(i: number, out: Collector<Item>): void {
    for (const entry of this.restored.splice(0)) {
      check('list entry', entry?.i, entry);
      out.collect({ kind: 'list', i: entry.i });
    }
    if (this.writing) this.seen.push(rich(i));
    out.collect({ kind: 'key', i });
  }
}

class Keep extends KeyedProcessFunction<number, Item, string> {
  private value!: ValueState<any>;
  private byIndex!: MapState<number, any>;
  constructor(private readonly writing: boolean) { super(); }
  open(): void {
    this.value = this.getRuntimeContext().getState(new ValueStateDescriptor('value', Types.GENERIC()));
    this.byIndex = this.getRuntimeContext().getMapState(new MapStateDescriptor('byIndex', Types.NUMBER, Types.GENERIC()));
  }
  processElement(item: Item, _ctx: KeyedProcessContext<number>, out: Collector<string>): void {
    if (item.kind === 'list') return out.collect('list ' + item.i);
    const i = item.i;
    if (this.writing) {
      this.value.update(rich(i));
      this.byIndex.put(i, rich(i));
      check('value state as written', i, this.value.value());
      check('map state as written', i, this.byIndex.get(i));
      return;
    }
    check('restored value state', i, this.value.value());
    check('restored map state', i, this.byIndex.get(i));
    out.collect('value ' + i);
    out.collect('map ' + i);
  }
}

export default function stateTypes(env: StreamExecutionEnvironment, args: string[]) {
  const [phase, backend, checkpointDir, output] = args;
  const writing = phase === 'write';
  env.enableCheckpointing(200);
  env.setStateBackend(backend === 'level' ? new LevelStateBackend(checkpointDir, true) : new FsStateBackend(checkpointDir));
  const generator = new DataGeneratorSource((i: number) => i, ${STATE_RECORDS}, RateLimiterStrategy.noOp(), Types.NUMBER);
  // The check run's source is a new one (its uid too): the savepoint's source has emitted everything.
  env.fromSource(writing ? new PausingSource(generator) : generator, 'numbers').uid(writing ? 'numbers' : 'numbers-again')
    .flatMap(new Remember(writing)).uid('remember').name('Remember')
    .keyBy((item: Item) => item.i)
    .process(new Keep(writing)).uid('keep').name('Keep')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build()).uid('sink');
}
`;
