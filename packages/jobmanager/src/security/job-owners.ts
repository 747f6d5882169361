/**
 * Who submitted each job (the principal's name), for the rule that a submitter may cancel,
 * stop or savepoint only its own jobs. Kept by the JobManager process: a job recovered by a
 * new HA leader has no recorded owner, so only operators and admins control it there.
 */
export class JobOwners {
  readonly #owners = new Map<string, string>();

  record(jobId: string, principal: string): void {
    this.#owners.set(jobId, principal);
  }

  ownerOf(jobId: string): string | undefined {
    return this.#owners.get(jobId);
  }
}
