import { createRequire } from 'node:module';

type ClassicLevelModule = typeof import('classic-level');

const require = createRequire(import.meta.url);
let classicLevel: ClassicLevelModule | undefined;

/**
 * classic-level, loaded when a task first opens a LevelDB: it is a native addon with some 30
 * JavaScript modules around it (abstract-level and its helpers), 10-15 ms of every
 * TaskManager's start, and only jobs with the LevelDB state backend use it.
 */
export function classicLevelModule(): ClassicLevelModule {
  return (classicLevel ??= require('classic-level') as ClassicLevelModule);
}
