import { once } from 'node:events';
import type { ConnectorContext, Sink, SinkWriter } from '../connector/types.ts';

/**
 * Writes `String(record)` per line to stdout, or stderr with `stdErr` (Flink's PrintSink),
 * prefixed as Flink does: `id:3> ` with an identifier and parallelism > 1, `id> ` with an
 * identifier alone, `3> ` (subtask + 1) with parallelism > 1 alone, nothing otherwise. It lives
 * in @weir/api (and @weir/connectors re-exports it) because `DataStream.print()` makes one.
 */
export class PrintSink<T> implements Sink<T> {
  constructor(
    readonly sinkIdentifier?: string,
    readonly stdErr = false,
  ) {}

  createWriter(context: ConnectorContext): SinkWriter<T> {
    return new PrintSinkWriter<T>(printPrefix(this.sinkIdentifier, context), this.stdErr ? process.stderr : process.stdout);
  }
}

export function printPrefix(sinkIdentifier: string | undefined, { subtaskIndex, parallelism }: ConnectorContext): string {
  const subtask = parallelism > 1 ? String(subtaskIndex + 1) : '';
  const prefix = sinkIdentifier !== undefined && sinkIdentifier.length > 0 ? (subtask ? `${sinkIdentifier}:${subtask}` : sinkIdentifier) : subtask;
  return prefix ? `${prefix}> ` : '';
}

class PrintSinkWriter<T> implements SinkWriter<T> {
  constructor(
    private readonly prefix: string,
    private readonly out: NodeJS.WritableStream,
  ) {}

  write(record: T): void | Promise<void> {
    // A full pipe makes the task wait: the slow reader of stdout backpressures the job.
    if (!this.out.write(`${this.prefix}${String(record)}\n`)) return once(this.out, 'drain').then(() => {});
  }

  flush(): void {}

  close(): void {}
}
