import { WeirError } from '@weir/common';
import { Boundedness, Types, type ConnectorContext, type Source, type TypeInformation } from '@weir/api';
import { ConnectorErrorCode } from '../errors.ts';
import { FRESH_START, singleReaderState } from '../restored-state.ts';
import { FileSourceReader, type FileSourcePosition } from './file-source-reader.ts';
import { TextLineInputFormat } from './text-line-input-format.ts';

/**
 * The lines of a text file, or of every visible file of a directory (Flink's FileSource).
 * Files are sorted by name and dealt round-robin to the readers; names starting with '.' or
 * '_' are skipped, as in Flink. Bounded: a reader ends after its last file.
 */
export class FileSource implements Source<string> {
  readonly boundedness = Boundedness.BOUNDED;
  readonly producedType: TypeInformation<string> = Types.STRING;

  private constructor(
    readonly path: string,
    private readonly format: TextLineInputFormat,
  ) {}

  static forRecordStreamFormat(format: TextLineInputFormat, path: string): FileSourceBuilder {
    if (!(format instanceof TextLineInputFormat)) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, 'FileSource.forRecordStreamFormat() takes a TextLineInputFormat, the only format so far');
    }
    if (typeof path !== 'string' || path.length === 0) {
      throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `FileSource needs the path of a file or directory, got ${String(path)}`);
    }
    return new FileSourceBuilder(() => new FileSource(path, format));
  }

  /** `restoredState`: exactly one state, the position a predecessor's `snapshotState()` returned, or undefined to start. */
  createReader(context: ConnectorContext, restoredState?: readonly unknown[]): FileSourceReader {
    const state = singleReaderState(restoredState, 'FileSource');
    return new FileSourceReader(this.path, this.format, context, state === FRESH_START ? null : requirePosition(state));
  }
}

/** null (or undefined, as MessagePack may give it back) is the position before anything was read. */
function requirePosition(state: unknown): FileSourcePosition | null {
  if (state === null || state === undefined) return null;
  const { file, offset } = state as Partial<FileSourcePosition>;
  if (typeof file !== 'string' || file.length === 0 || typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) {
    throw new WeirError(
      ConnectorErrorCode.INVALID_POSITION,
      `a FileSource reader resumes from { file, offset } (the start of the next line) or null, got ${JSON.stringify(state)}`,
    );
  }
  return { file, offset };
}

export class FileSourceBuilder {
  constructor(private readonly create: () => FileSource) {}

  build(): FileSource {
    return this.create();
  }
}
