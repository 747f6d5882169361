import { describeLeftSlot, dropSlotSql, REPLICATION_SLOT_KIND } from '@weir/connectors';
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
 * `weir info` of an ended job: what it left behind. With `checkSlots`, a replication slot is
 * looked up on its server (dropped, or still there holding WAL), whatever the job was told to
 * do with it, since a failed job keeps its slot and a drop can fail. Only when asked: the
 * server is the one the job's submitter named, and the lookup logs in with the caller's
 * PGUSER and PGPASSWORD, which a server of a submitter's choosing must not get unasked.
 * Other claims say what they leave as such.
 */
export async function leftBehindAfterEnd(details: JobDetails__Output, checkSlots: boolean): Promise<string[]> {
  const status = details.summary?.status;
  if (status !== 'FINISHED' && status !== 'CANCELED' && status !== 'FAILED') return [];
  const lines: string[] = [];
  for (const resource of details.exclusiveResources) {
    if (resource.kind === REPLICATION_SLOT_KIND) lines.push(checkSlots ? await describeLeftSlot(resource) : uncheckedSlot(resource.name, resource.scope));
    else if (resource.leftBehind !== '') lines.push(resource.leftBehind);
  }
  return lines;
}

function uncheckedSlot(slot: string, scope: string): string {
  return `replication slot '${slot}' on ${scope}: may still be there (weir info --check-slots looks it up there, logging in with PGUSER and PGPASSWORD); drop it with: ${dropSlotSql(slot)}`;
}
