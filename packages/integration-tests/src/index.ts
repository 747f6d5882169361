export * from './cluster.ts';
export * from './process.ts';
export * from './jobs.ts';
export * from './checkpoints.ts';
export * from './savepoints.ts';
export * from './raw-grpc.ts';
export * from './ha-cluster.ts';
export * from './netns.ts';
