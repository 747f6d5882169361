import { q3, q4 } from './join-queries.ts';
import type { NexmarkQuery } from './query.ts';
import { q0, q1, q2 } from './stateless-queries.ts';
import { q11, q5, q7, q8 } from './window-queries.ts';

export type { NexmarkQuery } from './query.ts';

/** The Nexmark queries Weir runs, in the benchmark's order. */
export const QUERIES: readonly NexmarkQuery[] = [q0, q1, q2, q3, q4, q5, q7, q8, q11];
