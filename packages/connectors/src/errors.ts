/** Codes of the WeirErrors that @weir/connectors throws. */
export const ConnectorErrorCode = {
  /** A source or sink was built with an argument out of range (count, rate, path, part size, function). */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** The path of a FileSource does not exist when its reader starts. */
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
  /** Reading, writing or renaming a file failed; the message names the file, the cause is attached. */
  IO_ERROR: 'IO_ERROR',
  /** A reader was restored from a position that is not one of this reader's (such as another subtask's). */
  INVALID_POSITION: 'INVALID_POSITION',
} as const;
export type ConnectorErrorCode = (typeof ConnectorErrorCode)[keyof typeof ConnectorErrorCode];
