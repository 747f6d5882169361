import { WeirError } from '@weir/common';
import {
  Boundedness,
  Types,
  type SourceReaderContext,
  type SplitEnumeratorContext,
  type SplitSource,
  type TypeInformation,
} from '@weir/api';
import { ConnectorErrorCode } from '../errors.ts';
import { FileSourceReader, type FileSplit } from './file-source-reader.ts';
import { FileSplitEnumerator, type FileEnumeratorState } from './file-split-enumerator.ts';
import { TextLineInputFormat } from './text-line-input-format.ts';

/**
 * The lines of a text file, or of every visible file of a directory (Flink's FileSource).
 * Each file is a split; readers ask the enumerator for one at a time, in name order. Names
 * starting with '.' or '_' are skipped, as in Flink. Bounded by default; with
 * `monitorContinuously(intervalMs)` the directory is listed again every interval and new files
 * are read as they appear (files already seen are not re-read when they grow).
 */
export class FileSource implements SplitSource<string, FileSplit, FileEnumeratorState> {
  readonly boundedness: Boundedness;
  readonly producedType: TypeInformation<string> = Types.STRING;

  constructor(
    readonly path: string,
    private readonly format: TextLineInputFormat,
    /** undefined: bounded. */
    readonly monitorIntervalMs: number | undefined,
  ) {
    this.boundedness = monitorIntervalMs === undefined ? Boundedness.BOUNDED : Boundedness.CONTINUOUS_UNBOUNDED;
  }

  /** Flink's FileSource.forRecordStreamFormat: the lines of the file at `path`, or of every visible file of that directory. */
  static forRecordStreamFormat(format: TextLineInputFormat, path: string): FileSourceBuilder {
    if (!(format instanceof TextLineInputFormat)) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'FileSource.forRecordStreamFormat() takes a TextLineInputFormat, the only format so far');
    }
    if (typeof path !== 'string' || path.length === 0) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `FileSource needs the path of a file or directory, got ${String(path)}`);
    }
    return new FileSourceBuilder(path, format);
  }

  createEnumerator(context: SplitEnumeratorContext<FileSplit>): FileSplitEnumerator {
    return new FileSplitEnumerator(context, this.path, this.monitorIntervalMs);
  }

  restoreEnumerator(context: SplitEnumeratorContext<FileSplit>, checkpoint: FileEnumeratorState): FileSplitEnumerator {
    const state = checkpoint as Partial<FileEnumeratorState> | null;
    if (state === null || !Array.isArray(state.pending) || !Array.isArray(state.seen) || typeof state.listed !== 'boolean') {
      throw new WeirError(ConnectorErrorCode.INVALID_POSITION, `a FileSource enumerator resumes from { pending, seen, listed }, got ${JSON.stringify(checkpoint)}`);
    }
    return new FileSplitEnumerator(context, this.path, this.monitorIntervalMs, { pending: state.pending.map(requireSplit), seen: state.seen, listed: state.listed });
  }

  createReader(context: SourceReaderContext): FileSourceReader {
    return new FileSourceReader(this.format, context, requireSplit);
  }
}

function requireSplit(split: unknown): FileSplit {
  const { splitId, file, offset } = (split ?? {}) as Partial<FileSplit>;
  if (typeof splitId !== 'string' || typeof file !== 'string' || file.length === 0 || typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) {
    throw new WeirError(
      ConnectorErrorCode.INVALID_POSITION,
      `a FileSource split is { splitId, file, offset } with offset the start of the next line, got ${JSON.stringify(split)}`,
    );
  }
  return { splitId, file, offset };
}

/** Builds a FileSource (Flink's FileSource.FileSourceBuilder): bounded by default, continuous with `monitorContinuously`. */
export class FileSourceBuilder {
  #monitorIntervalMs: number | undefined;

  constructor(
    private readonly path: string,
    private readonly format: TextLineInputFormat,
  ) {}

  /** Keeps watching the path: lists it every `intervalMs` and reads new files (the source never ends). */
  monitorContinuously(intervalMs: number): this {
    if (!Number.isSafeInteger(intervalMs) || intervalMs < 1) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `monitorContinuously() takes an interval in milliseconds >= 1, got ${intervalMs}`);
    }
    this.#monitorIntervalMs = intervalMs;
    return this;
  }

  /** The FileSource. */
  build(): FileSource {
    return new FileSource(this.path, this.format, this.#monitorIntervalMs);
  }
}
