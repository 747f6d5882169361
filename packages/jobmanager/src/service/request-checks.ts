import { isUtf8 } from 'node:buffer';
import { CommonErrorCode, MAX_MAX_PARALLELISM, WeirError, quoteInput } from '@weir/common';
import type { SubmitJobRequest__Output } from '@weir/rpc';
import { JobManagerErrorCode } from '../errors.ts';

/*
 * What every request must look like before the JobManager does anything with it. Checks are
 * cheap (no I/O, nothing proportional to more than the request itself), so a malformed or
 * hostile request is answered at once, and a message never quotes more than a bounded part
 * of what was sent.
 */

/** Longest path (savepoint path, target directory) a request may carry: Linux's PATH_MAX. */
const MAX_PATH_CHARS = 4_096;
/** Longest entry name: a file name. */
const MAX_ENTRY_NAME_CHARS = 255;
/** Most args a job may get; a job needing more should read them from a file. */
const MAX_ARGS = 10_000;
/** Most `-D` keys a job may carry (there are fewer job keys than this), and the longest key and value. */
const MAX_CONFIGURATION_ENTRIES = 64;
const MAX_CONFIGURATION_CHARS = 1_024;

/** SubmitJob: a bundle of UTF-8 text, a file name, bounded args, a parallelism the API accepts, a bounded savepoint path and bounded configuration keys. */
export function checkSubmitJob(request: SubmitJobRequest__Output): void {
  if (request.bundle.length === 0) throw invalid(CommonErrorCode.INVALID_JOB, 'the job bundle is empty; submit the bundled job module (weir run bundles it)');
  if (!isUtf8(request.bundle)) throw invalid(CommonErrorCode.INVALID_JOB, 'the job bundle is not UTF-8 text; submit the bundled JavaScript job module (weir run bundles it)');
  const name = request.entryName;
  if (name.length > MAX_ENTRY_NAME_CHARS || /[/\\\p{Cc}]/u.test(name)) {
    throw invalid(JobManagerErrorCode.INVALID_REQUEST, `entry name ${quoteInput(name)} is not a file name: give the job file's base name, at most ${MAX_ENTRY_NAME_CHARS} characters without / or control characters`);
  }
  if (request.args.length > MAX_ARGS) {
    throw invalid(JobManagerErrorCode.INVALID_REQUEST, `the job is given ${request.args.length} args, more than ${MAX_ARGS}; pass the job a file to read them from`);
  }
  if (request.parallelism > MAX_MAX_PARALLELISM) {
    throw invalid(JobManagerErrorCode.INVALID_REQUEST, `parallelism ${request.parallelism} is above ${MAX_MAX_PARALLELISM}, the most a job can have; give 1 to ${MAX_MAX_PARALLELISM}, or 0 for the cluster's parallelism.default`);
  }
  checkPath('savepoint path', request.savepointPath);
  const configuration = Object.entries(request.configuration);
  if (configuration.length > MAX_CONFIGURATION_ENTRIES) {
    throw invalid(JobManagerErrorCode.INVALID_REQUEST, `the job carries ${configuration.length} configuration keys, more than ${MAX_CONFIGURATION_ENTRIES}; weir run -D takes the job's own keys only`);
  }
  for (const [key, value] of configuration) {
    if (key.length > MAX_CONFIGURATION_CHARS || value.length > MAX_CONFIGURATION_CHARS || /\p{Cc}/u.test(key + value)) {
      throw invalid(JobManagerErrorCode.INVALID_REQUEST, `configuration key ${quoteInput(key)} = ${quoteInput(value)} is no config entry: keys and values are at most ${MAX_CONFIGURATION_CHARS} characters without control characters`);
    }
  }
}

/** A path a request names (savepoint path, target directory): at most PATH_MAX characters, no control characters. */
export function checkPath(what: string, path: string): void {
  if (path.length > MAX_PATH_CHARS || /\p{Cc}/u.test(path)) {
    throw invalid(JobManagerErrorCode.INVALID_REQUEST, `${what} ${quoteInput(path)} is not a path: give a local path, file:// or s3:// URL of at most ${MAX_PATH_CHARS} characters without control characters`);
  }
}

/** FetchBundle: a SHA-256 in hex, as the JobManager hands them out in DeployTask. */
export function checkBundleHash(hash: string): void {
  if (!/^[0-9a-f]{64}$/.test(hash)) {
    throw invalid(JobManagerErrorCode.INVALID_REQUEST, `${quoteInput(hash)} is not a bundle hash: ask for the SHA-256 (64 hex digits) a DeployTask named`);
  }
}

function invalid(code: string, message: string): WeirError {
  return new WeirError(code, message);
}
