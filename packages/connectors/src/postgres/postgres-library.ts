import { createRequire } from 'node:module';
import type * as Pg from 'pg';
import type * as PgLogicalReplication from 'pg-logical-replication';

const requireHere = createRequire(import.meta.url);
let pg: typeof Pg | undefined;
let replication: typeof PgLogicalReplication | undefined;

/**
 * node-postgres, loaded on first use: every TaskManager and job worker imports this package
 * whatever its job reads and writes, and only jobs that use PostgreSQL should pay for loading it.
 */
export function pgLibrary(): typeof Pg {
  return (pg ??= requireHere('pg') as typeof Pg);
}

/** pg-logical-replication (the CDC source's stream), loaded on first use for the same reason. */
export function replicationLibrary(): typeof PgLogicalReplication {
  return (replication ??= requireHere('pg-logical-replication') as typeof PgLogicalReplication);
}
