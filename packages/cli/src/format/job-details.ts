import { durationText } from '@weir/common';
import type { FailoverInfo__Output, JobDetails__Output, JobSummary__Output, VertexInfo__Output } from '@weir/rpc';
import { formatTable } from './table.ts';
import { formatTime } from './time.ts';
import { formatDuration } from './checkpoints.ts';

/** `weir list`: one row per job, oldest first. */
export function formatJobList(jobs: readonly JobSummary__Output[]): string[] {
  if (jobs.length === 0) return ['No jobs.'];
  const sorted = [...jobs].sort((a, b) => a.startTimeMs - b.startTimeMs);
  return formatTable(
    ['JOB ID', 'NAME', 'STATUS', 'START TIME'],
    sorted.map((job) => [job.jobId, job.name, job.status, formatTime(job.startTimeMs)]),
  );
}

/** `weir info`: the job, then per vertex its operators, inputs and where each subtask runs. */
export function formatJobDetails(details: JobDetails__Output): string[] {
  const summary = details.summary;
  const lines = [
    `Job ${summary?.jobId ?? '?'} (${summary?.name ?? '?'})`,
    `  status:   ${summary?.status ?? '?'} (attempt ${details.attempt})`,
    `  started:  ${formatTime(summary?.startTimeMs ?? 0)}`,
    `  ended:    ${formatTime(summary?.endTimeMs ?? 0)}`,
  ];
  if (details.checkpointing !== '') lines.push(`  checkpoints: ${details.checkpointing}`);
  if (details.restartStrategy !== '') lines.push(`  restarts: ${details.restartStrategy}`);
  const configuration = Object.entries(details.configuration);
  if (configuration.length > 0) lines.push(`  configuration: ${configuration.map(([key, value]) => `-D ${key}=${value}`).join(' ')}`);
  if (details.failureCause !== '') lines.push(`  failure:  ${details.failureCause}`);
  if (details.failovers.length > 0) lines.push('', 'Failovers (newest first):', ...details.failovers.flatMap(formatFailover));
  const names = new Map(details.vertices.map((vertex) => [vertex.vertexId, vertex.name]));
  for (const vertex of details.vertices) lines.push('', ...formatVertex(vertex, names));
  return lines;
}

/** `  attempt 2 failed at <time>, restarted after 1.5s: <cause> [CODE]`, the cause's further lines indented below. */
function formatFailover(failover: FailoverInfo__Output): string[] {
  const outcome = failover.restarted ? `restarted after ${durationText(failover.restartDelayMs)}` : 'the job FAILED';
  const [first, ...rest] = failover.cause.split('\n');
  const code = failover.code === '' ? '' : ` [${failover.code}]`;
  return [`  attempt ${failover.attempt} failed at ${formatTime(failover.timeMs)}, ${outcome}: ${first}${code}`, ...rest.map((line) => `      ${line}`)];
}

function formatVertex(vertex: VertexInfo__Output, names: ReadonlyMap<string, string>): string[] {
  const inputs =
    vertex.inputs.length === 0
      ? ['    none (source)']
      : vertex.inputs.map((input) => `    ${names.get(input.sourceVertexId) ?? input.sourceVertexId} (${input.partitioner})`);
  const subtasks = formatTable(
    ['#', 'STATE', 'TASKMANAGER', 'RESTORE', 'FAILURE'],
    vertex.subtasks.map((subtask) => [String(subtask.index), subtask.state, subtask.taskManagerId || '-', initialization(subtask.initializationMs), subtask.failureCause]),
  );
  const operators = formatTable(
    ['OPERATOR', 'UID', 'ID'],
    vertex.operators.map((operator) => [operator.name, operator.uid || '-', operator.operatorId]),
  );
  return [
    `Vertex ${vertex.name} [${vertex.vertexId}]: parallelism ${vertex.parallelism}, max parallelism ${vertex.maxParallelism}`,
    '  operators:',
    ...operators.map((line) => `    ${line}`),
    '  inputs:',
    ...inputs,
    '  subtasks:',
    ...subtasks.map((line) => `    ${line}`),
  ];
}

/** How long the subtask took from INITIALIZING to RUNNING (open state, restore it, open operators); `-` until it runs. */
function initialization(ms: number): string {
  return ms < 0 ? '-' : formatDuration(ms);
}
