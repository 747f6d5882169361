import type { CheckpointInfo__Output, JobServiceClient, ListCheckpointsResponse__Output } from '@weir/rpc';

export function listCheckpoints(client: JobServiceClient, jobId: string): Promise<ListCheckpointsResponse__Output> {
  return new Promise((resolve, reject) => {
    client.listCheckpoints({ jobId }, (err, response) => (err ? reject(err) : resolve(response!)));
  });
}

/** Polls the checkpoint history until `predicate` holds for it. */
export async function waitForCheckpoints(
  client: JobServiceClient,
  jobId: string,
  predicate: (checkpoints: CheckpointInfo__Output[]) => boolean,
  timeoutMs = 60_000,
): Promise<CheckpointInfo__Output[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { checkpoints } = await listCheckpoints(client, jobId);
    if (predicate(checkpoints)) return checkpoints;
    if (Date.now() > deadline) throw new Error(`checkpoints of ${jobId} never met the condition: ${JSON.stringify(checkpoints.slice(0, 5))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const completedCount = (checkpoints: readonly CheckpointInfo__Output[]): number =>
  checkpoints.filter((c) => c.status === 'COMPLETED').length;
