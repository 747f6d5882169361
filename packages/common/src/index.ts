export * from './errors.ts';
export * from './logger.ts';
export * from './states.ts';
export * from './clock.ts';
export * from './key-groups.ts';
export * from './bundle.ts';
export * from './config/options.ts';
export * from './config/load.ts';
export { envVarName } from './config/env.ts';
