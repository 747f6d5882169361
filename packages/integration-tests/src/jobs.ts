import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobDetails__Output, JobServiceClient } from '@weir/rpc';

/** Writes a job module into a fresh directory outside the repo (no node_modules near it) and returns its path. */
export function writeJobFile(source: string, name = 'job.ts'): string {
  const dir = mkdtempSync(join(tmpdir(), 'weir-job-'));
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

export function getJob(client: JobServiceClient, jobId: string): Promise<JobDetails__Output> {
  return new Promise((resolve, reject) => {
    client.getJob({ jobId }, (err, details) => (err ? reject(err) : resolve(details!)));
  });
}

/** Polls the job until its status is one of `statuses`. */
export async function waitForStatus(
  client: JobServiceClient,
  jobId: string,
  statuses: readonly string[],
  timeoutMs = 60_000,
): Promise<JobDetails__Output> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const details = await getJob(client, jobId);
    if (statuses.includes(details.summary!.status)) return details;
    if (Date.now() > deadline) {
      throw new Error(`job ${jobId} is ${details.summary!.status}, expected ${statuses.join('|')}: ${details.failureCause}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The job ID from `weir run`'s "Job has been submitted with JobID <id>" line. */
export function jobIdFrom(output: string): string {
  const match = /JobID ([0-9a-f]{32})/.exec(output);
  if (!match) throw new Error(`no JobID in output:\n${output}`);
  return match[1]!;
}
