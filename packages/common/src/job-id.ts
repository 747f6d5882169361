import { CommonErrorCode, WeirError } from './errors.ts';

/** A job ID as the JobManager makes them: 32 hex digits. */
const JOB_ID = /^[0-9a-f]{32}$/i;

/**
 * Whether text is shaped like a job ID. The JobManager checks every job ID it is sent with
 * it before any lookup; `weir cancel -s [targetDirectory] <jobId>` needs it too: with the
 * directory left out, the parser hands the job ID to -s, and only its shape says which it is.
 */
export function isJobId(text: string): boolean {
  return JOB_ID.test(text);
}

/** The job ID `text` is, in lower case as the JobManager makes them; INVALID_JOB_ID when it is not one. */
export function parseJobId(text: string): string {
  if (!isJobId(text)) {
    throw new WeirError(CommonErrorCode.INVALID_JOB_ID, `${quoteInput(text)} is not a job ID: a job ID is 32 hex digits, as \`weir list\` shows them`);
  }
  return text.toLowerCase();
}

/**
 * Text someone sent, quoted for a message: cut after `max` characters, with the length said,
 * so an error about a megabyte of input stays a line (and fits a gRPC status).
 */
export function quoteInput(text: string, max = 64): string {
  return text.length <= max ? `'${text}'` : `'${text.slice(0, max)}…' (${text.length} characters)`;
}
