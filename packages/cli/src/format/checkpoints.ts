import type { CheckpointInfo__Output, ListCheckpointsResponse__Output } from '@weir/rpc';
import { formatTable } from './table.ts';
import { formatTime } from './time.ts';

/**
 * `weir checkpoints`: the counts, what the current attempt restored, then one row per
 * checkpoint, newest first. KIND tells savepoints from checkpoints (`-` from a JobManager that
 * does not say); STATE SIZE is the full size (everything the checkpoint refers to, shared files
 * of incremental checkpoints included) and CHECKPOINTED what it wrote (Flink's state size and
 * checkpointed size); TYPE is aligned or unaligned, and IN-FLIGHT the in-flight data an unaligned
 * checkpoint saved as channel state.
 */
export function formatCheckpoints(jobId: string, history: ListCheckpointsResponse__Output): string[] {
  const lines = [
    `Checkpoints of job ${jobId}: ${history.completed} completed, ${history.failed} failed`,
    history.restoredFrom === 0 ? 'Restored from: none (the job started without state)' : `Restored from: checkpoint ${history.restoredFrom} (${formatBytes(history.restoredBytes)})`,
    ...leftBehind(history),
  ];
  if (history.checkpoints.length === 0) return [...lines, 'No checkpoints.'];
  const rows = history.checkpoints.map((c) => [
    String(c.checkpointId),
    c.kind || '-',
    c.status,
    formatTime(c.triggerTimeMs),
    formatDuration(c.durationMs),
    formatBytes(c.stateBytes),
    formatBytes(c.checkpointedBytes),
    c.unaligned ? 'unaligned' : 'aligned',
    formatBytes(c.persistedBytes),
    `${c.alignmentMs} ms`,
    `${c.syncMs} ms`,
    `${c.acknowledged}/${c.totalTasks}`,
    failureOf(c),
  ]);
  return [...lines, '', ...formatTable(['ID', 'KIND', 'STATUS', 'TRIGGER TIME', 'DURATION', 'STATE SIZE', 'CHECKPOINTED', 'TYPE', 'IN-FLIGHT', 'ALIGNMENT', 'SYNC', 'ACKS', 'FAILURE'], rows)];
}

/** What the last sweep of the checkpoint directory found that no checkpoint uses; nothing before a sweep counted it. */
function leftBehind(history: ListCheckpointsResponse__Output): string[] {
  if (!history.leftBehindCounted) return [];
  if (history.leftBehindFiles === 0) return ['Left behind: none (every file in the checkpoint directory belongs to a checkpoint)'];
  const files = history.leftBehindFiles === 1 ? '1 file' : `${history.leftBehindFiles} files`;
  return [`Left behind: ${files}, ${formatBytes(history.leftBehindBytes)}, in the checkpoint directory that no checkpoint uses`];
}

function failureOf(checkpoint: CheckpointInfo__Output): string {
  return checkpoint.status === 'FAILED' ? checkpoint.failureReason : '';
}

/** `850 ms` below a second, `12.3 s` below a minute, `4m 05s` above. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1_000);
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
}

/** Bytes in binary units with one decimal: `512 B`, `1.5 KiB`, `12.0 MiB`. */
export function formatBytes(bytes: number): string {
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  if (bytes < 1_024) return `${bytes} B`;
  let value = bytes / 1_024;
  let unit = 0;
  while (value >= 1_024 && unit < units.length - 1) {
    value /= 1_024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
