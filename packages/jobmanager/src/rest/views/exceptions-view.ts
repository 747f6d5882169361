import type { JobGraph } from '@weir/api';
import type { RecordedFailure } from '../../job/exception-history.ts';
import type { JobMaster } from '../../job/job-master.ts';
import { subtaskName } from '../../job/task-name.ts';

interface ExceptionInfo {
  readonly exceptionName: string;
  readonly stacktrace: string;
  readonly timestamp: number;
  readonly taskName: string | null;
  readonly location: string | null;
  readonly taskManagerId: string | null;
}

function exceptionInfo(graph: JobGraph, failure: RecordedFailure): ExceptionInfo {
  const origin = failure.origin;
  return {
    exceptionName: failure.code,
    stacktrace: failure.message,
    timestamp: failure.timestampMs,
    taskName: origin === undefined ? null : subtaskName(graph, origin.vertexId, origin.subtaskIndex),
    location: origin?.taskManagerId ?? null,
    taskManagerId: origin?.taskManagerId ?? null,
  };
}

/**
 * GET /jobs/:id/exceptions (Flink's JobExceptionsInfoWithHistory): the root exception (the
 * final cause of a FAILED job, else the latest attempt's root failure) and the history of each
 * attempt's root failure with the failures that came with it, newest first.
 */
export function exceptionsView(job: JobMaster): object {
  const graph = job.spec.jobGraph;
  const { entries, truncated } = job.exceptions();
  const latest = entries[0];
  const root = job.failureCause !== '' ? job.failureCause : (latest?.message ?? null);
  return {
    'root-exception': root,
    timestamp: latest?.timestampMs ?? null,
    'all-exceptions': entries.map((e) => {
      const info = exceptionInfo(graph, e);
      return { exception: info.stacktrace, task: info.taskName, location: info.location, timestamp: info.timestamp };
    }),
    truncated,
    exceptionHistory: {
      entries: entries.map((e) => ({
        ...exceptionInfo(graph, e),
        attempt: e.attempt,
        // What the restart strategy decided: the next attempt after restartDelay ms, or the job FAILED; null while undecided.
        restarted: e.restart === undefined ? null : e.restart !== 'failed',
        restartDelay: typeof e.restart === 'number' ? e.restart : null,
        concurrentExceptions: e.concurrent.map((c) => exceptionInfo(graph, c)),
      })),
      truncated,
    },
  };
}
