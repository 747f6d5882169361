export { startJobManager, type JobManagerHandle, type JobManagerOptions } from './job-manager.ts';
export { JobManagerErrorCode } from './errors.ts';
