/**
 * What the `weir` package exports besides its `weir` bin: the command line's parts, for tools
 * that drive a cluster from code (the client, the bundler, the local cluster).
 * @module weir
 */
export { CliErrorCode } from './errors.ts';
export { buildProgram, type CliActions } from './program.ts';
export { bundleJob, type JobBundle } from './bundle.ts';
export { JobClient } from './client/job-client.ts';
export { weirCommand } from './child-command.ts';
export { ProcessSupervisor, type ChildSpec, type SupervisorOptions } from './supervisor/supervisor.ts';
export { RestartPolicy } from './supervisor/restart-policy.ts';
export { describeExit, isFailure, type ChildExit } from './supervisor/child-exit.ts';
export { LocalCluster, TASKMANAGER_RESTART_DELAY_MS, type LocalClusterOptions } from './cluster/local-cluster.ts';
export { freePort } from '@weir/common';
export { followJob } from './commands/follow-job.ts';
export type { CliContext } from './context.ts';
