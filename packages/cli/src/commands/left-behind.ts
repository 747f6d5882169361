import { describeLeftSlot, REPLICATION_SLOT_KIND } from '@weir/connectors';
import type { JobDetails__Output } from '@weir/rpc';

/**
 * What a job's claims say stays outside the cluster once it is cancelled (a kept replication
 * slot and how to drop it), a line each: `weir cancel` prints these, and `weir run` when the
 * job it follows is cancelled or fails.
 */
export function leftBehindOnCancel(details: JobDetails__Output | undefined): string[] {
  return (details?.exclusiveResources ?? []).filter((r) => r.leftBehind !== '').map((r) => r.leftBehind);
}

/**
 * `weir info` of an ended job: what it left behind. A replication slot is looked up on its
 * server (dropped, or still there holding WAL), whatever the job was told to do with it, since
 * a failed job keeps its slot and a drop can fail; other claims say what they leave as such.
 */
export async function leftBehindAfterEnd(details: JobDetails__Output): Promise<string[]> {
  const status = details.summary?.status;
  if (status !== 'FINISHED' && status !== 'CANCELED' && status !== 'FAILED') return [];
  const lines: string[] = [];
  for (const resource of details.exclusiveResources) {
    if (resource.kind === REPLICATION_SLOT_KIND) lines.push(await describeLeftSlot(resource));
    else if (resource.leftBehind !== '') lines.push(resource.leftBehind);
  }
  return lines;
}
