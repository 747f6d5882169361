export { startTaskManager } from './start.ts';
export type { TaskManagerHandle } from './task-manager.ts';
export { TaskManagerErrorCode } from './errors.ts';
export { GrpcRemoteConnector } from './data/remote-connector.ts';
export { startDataServer, type DataServer } from './data/data-server.ts';
