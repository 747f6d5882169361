import { encodeSourceEvent, isGloballyTerminal, type JobStatus } from '@weir/common';
import { encodeEnumeratorEvent, type FetchResultsResponse } from '@weir/rpc';
import type { TaskManagerGateway } from '../job/task-manager-gateway.ts';
import type { CollectResultBuffer, CollectSender } from './collect-result-buffer.ts';

/** How long a fetch waits for rows before it answers with none (Flink's client polls; this long-polls). */
export const FETCH_WAIT_MS = 1_000;
/** Rows a fetch takes when the client names no limit. */
const DEFAULT_FETCH_ROWS = 1_024;

/** The buffer's credit as an OperatorEvent to the collect sink's task on its TaskManager. */
export function creditSender(jobId: string, gateway: TaskManagerGateway): (sender: CollectSender, credits: number) => void {
  return (sender, credits) => {
    const { taskManagerId, attempt, vertexId, subtaskIndex, operatorId } = sender;
    gateway.send(taskManagerId, { operatorEvent: encodeEnumeratorEvent({ task: { jobId, attempt, vertexId, subtaskIndex }, operatorId, event: { kind: 'collect-credit', credits } }) });
  };
}

/** What a fetch reads of the job: its buffer and its status. */
export interface CollectingJob {
  readonly results: CollectResultBuffer;
  readonly status: JobStatus;
}

/**
 * One FetchResults: the buffered rows at once, or, with none, the first to arrive within
 * `waitMs` (or the job's end, which wakes the buffer). `end_of_results` once the job is
 * terminal and its buffer is empty; the rows a terminal job sent are still handed out first.
 */
export async function fetchResults(job: CollectingJob, maxRows: number, waitMs = FETCH_WAIT_MS): Promise<FetchResultsResponse> {
  if (job.results.size === 0 && !isGloballyTerminal(job.status)) await job.results.whenRows(waitMs);
  const rows = job.results.take(maxRows > 0 ? maxRows : DEFAULT_FETCH_ROWS);
  const status = job.status;
  return { rows: encodeSourceEvent({ kind: 'collect-rows', rows }), jobStatus: status, endOfResults: isGloballyTerminal(status) && job.results.size === 0 };
}
