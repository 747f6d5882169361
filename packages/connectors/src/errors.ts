/** Codes of the WeirErrors that @weir/connectors throws. */
export const ConnectorErrorCode = {
  /** A source or sink was built with an argument out of range (count, rate, path, part size, function). */
  INVALID_ARGUMENT: 'INVALID_ARGUMENT',
  /** The path of a FileSource does not exist when its reader starts. */
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
  /** Reading, writing or renaming a file failed; the message names the file, the cause is attached. */
  IO_ERROR: 'IO_ERROR',
  /** A restored split or enumerator state does not fit the source (a generator with another count, a malformed file split). */
  INVALID_POSITION: 'INVALID_POSITION',
  /** A FileSink writer state or committable from a checkpoint is not of the shape a FileSink writes. */
  INVALID_RESTORED_STATE: 'INVALID_RESTORED_STATE',
  /**
   * A FileSink committer found neither the pending nor the final file of a part it must commit:
   * the hidden pending file was deleted, or the output directory is not shared by all TaskManagers.
   */
  LOST_PART_FILE: 'LOST_PART_FILE',
} as const;
export type ConnectorErrorCode = (typeof ConnectorErrorCode)[keyof typeof ConnectorErrorCode];
