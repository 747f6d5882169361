/**
 * Which bucket (a subdirectory of the sink's directory) a record goes to (Flink's
 * BucketAssigner, row format). Each bucket has its own in-progress part per subtask.
 */
export interface BucketAssigner<T> {
  /** A relative path below the sink's directory (`''`: the directory itself); no `..` segment. */
  getBucketId(element: T): string;
}

/** Every record in the sink's directory itself (Flink's BasePathBucketAssigner); the FileSink's default. */
export class BasePathBucketAssigner<T> implements BucketAssigner<T> {
  getBucketId(_element: T): string {
    return '';
  }
}
