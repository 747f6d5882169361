// `@weir/taskmanager/liveness`: the liveness endpoint alone, a small file, so that `weir taskmanager`
// boots its thread while the TaskManager's own modules load (cli's serve.ts).
export { startLivenessEndpoint, type LivenessEndpoint } from './liveness-endpoint.ts';
