/** A job ID as the JobManager makes them: 32 hex digits. */
const JOB_ID = /^[0-9a-f]{32}$/i;

/**
 * Whether text is shaped like a job ID. `weir cancel -s [targetDirectory] <jobId>` needs it:
 * with the directory left out, the parser hands the job ID to -s, and only its shape says
 * which of the two it is.
 */
export function looksLikeJobId(text: string): boolean {
  return JOB_ID.test(text);
}
