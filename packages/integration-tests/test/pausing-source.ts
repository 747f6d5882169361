/**
 * Source text of PausingSource, for the job texts of the metrics tests: a DataGeneratorSource
 * whose readers go quiet instead of ending once they emitted every event, so the job's tasks
 * and their metrics stay up. A job text that includes it imports Boundedness, InputStatus,
 * ReaderOutput, SourceReaderContext, SplitEnumeratorContext, SplitSource and SplitSourceReader
 * from '@weir/api', and DataGeneratorSource and GeneratorSplit from '@weir/connectors'.
 */
export const PAUSING_SOURCE = `
const QUIET = new Promise<void>(() => {});

/** The generator's splits and enumerator; its readers go quiet instead of ending. */
class PausingSource implements SplitSource<number, GeneratorSplit, GeneratorSplit[]> {
  readonly boundedness = Boundedness.CONTINUOUS_UNBOUNDED;
  constructor(private readonly inner: DataGeneratorSource<number>) {}
  createEnumerator(context: SplitEnumeratorContext<GeneratorSplit>) {
    return this.inner.createEnumerator(context);
  }
  restoreEnumerator(context: SplitEnumeratorContext<GeneratorSplit>, checkpoint: GeneratorSplit[]) {
    return this.inner.restoreEnumerator(context, checkpoint);
  }
  createReader(context: SourceReaderContext): SplitSourceReader<number, GeneratorSplit> {
    const reader = this.inner.createReader(context);
    let done = false;
    return {
      addSplits: (splits) => reader.addSplits(splits),
      notifyNoMoreSplits: () => reader.notifyNoMoreSplits(),
      pollNext: (output: ReaderOutput<number>) => {
        if (done) return InputStatus.NOTHING_AVAILABLE;
        const status = reader.pollNext(output);
        if (status !== InputStatus.END_OF_INPUT) return status;
        done = true;
        return InputStatus.NOTHING_AVAILABLE;
      },
      isAvailable: () => (done ? QUIET : reader.isAvailable()),
      snapshotState: () => reader.snapshotState(),
    };
  }
}
`;
