/**
 * Where a cluster keeps its state in etcd, all below `/weir/<cluster-id>/`:
 *
 * | key | value |
 * |---|---|
 * | `cluster` | the cluster's identity: its storageDir |
 * | `election/<lease>` | one per candidate JobManager, on its lease; the oldest (lowest create revision) leads |
 * | `leader` | the leader's address and epoch, on its lease |
 * | `jobs/<jobId>` | a job's record: status and where its submission is in storageDir |
 * | `checkpoints/<jobId>/counter` | the last checkpoint ID handed out |
 * | `checkpoints/<jobId>/completed/<id, 20 digits>` | one per retained completed checkpoint: its directory |
 */
export class HaKeys {
  readonly root: string;

  constructor(clusterId: string) {
    this.root = `/weir/${clusterId}/`;
  }

  get cluster(): string {
    return `${this.root}cluster`;
  }

  get election(): string {
    return `${this.root}election/`;
  }

  get leader(): string {
    return `${this.root}leader`;
  }

  get jobs(): string {
    return `${this.root}jobs/`;
  }

  job(jobId: string): string {
    return `${this.jobs}${jobId}`;
  }

  checkpoints(jobId: string): string {
    return `${this.root}checkpoints/${jobId}/`;
  }

  checkpointCounter(jobId: string): string {
    return `${this.checkpoints(jobId)}counter`;
  }

  completedCheckpoints(jobId: string): string {
    return `${this.checkpoints(jobId)}completed/`;
  }

  /** Zero-padded, so keys sort by ID. */
  completedCheckpoint(jobId: string, checkpointId: number): string {
    return `${this.completedCheckpoints(jobId)}${String(checkpointId).padStart(20, '0')}`;
  }
}
