import type { ExclusiveResource } from '@weir/api';
import { describeError, WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../../errors.ts';
import { connect, databaseError, parsePostgresUrl, postgresFailure, type PostgresConnectionOptions } from '../postgres-connection.ts';
import { pgLibrary } from '../postgres-library.ts';
import { literal } from '../prepared-transactions.ts';

/** The kind of a PostgresCdcSource's claim on its slot (ExclusiveResource.kind). */
export const REPLICATION_SLOT_KIND = 'postgres.replication-slot';

/** A dropped job's slot that is still active is its reader's walsender, which ends once the reader's connection closed: wait this long for it. */
const DROP_WAIT_MS = 20_000;

/** The SQL that drops `slot`, run in the slot's database. */
export function dropSlotSql(slot: string): string {
  return `SELECT pg_drop_replication_slot(${literal(slot)})`;
}

/**
 * The source's claim on its slot: one job at a time (two would take each other's changes), and
 * what stays after the job is cancelled: a kept slot holds the server's WAL until someone drops
 * it. A slot dropped on cancel leaves nothing behind (a failed job's is still kept: `weir info`
 * checks every ended job's slot).
 */
export function slotClaim(connection: PostgresConnectionOptions, slot: string, dropOnStop: boolean): ExclusiveResource {
  const where = `${connection.hostname}:${connection.port}/${connection.database}`;
  const claim = { kind: REPLICATION_SLOT_KIND, scope: where, name: slot, description: `PostgreSQL replication slot '${slot}' on ${where}` };
  if (dropOnStop) return claim;
  return {
    ...claim,
    leftBehind:
      `PostgreSQL replication slot '${slot}' on ${where} is kept (dropSlotOnStop(true) drops it when the job is cancelled); it holds the server's WAL until dropped: ` +
      `psql -h ${connection.hostname} -p ${connection.port} -d ${connection.database} -c "${dropSlotSql(slot)}"`,
  };
}

/** Drops `slot` if it exists, waiting while the job's last reader lets go of it. */
export async function dropReplicationSlot(connection: PostgresConnectionOptions, slot: string): Promise<boolean> {
  const client = await connect(connection, 'weir-postgres-cdc-drop-slot');
  const deadline = Date.now() + DROP_WAIT_MS;
  try {
    for (;;) {
      try {
        const { rowCount } = await client.query('SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1 AND database = current_database()', [slot]);
        return (rowCount ?? 0) > 0;
      } catch (err) {
        // 55006: the slot is active (its walsender has not ended yet).
        if (databaseError(err)?.code !== '55006' || Date.now() > deadline) throw postgresFailure(err, connection, `dropping replication slot '${slot}'`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * One line on a slot an ended job claimed: whether it is still there and how much WAL it holds.
 * Logs in as psql would (PGUSER, PGPASSWORD), since a claim carries no credentials; when that
 * fails, the line says the slot may be there and why it could not be checked.
 */
export async function describeLeftSlot(claim: Pick<ExclusiveResource, 'scope' | 'name'>): Promise<string> {
  const slot = claim.name;
  let place: ReturnType<typeof parsePostgresUrl>;
  try {
    place = parsePostgresUrl(`postgres://${claim.scope}`);
  } catch (err) {
    throw new WeirError(ConnectorErrorCode.INVALID_ARGUMENT, `a replication slot claim's scope is host:port/database, got '${claim.scope}'`, { cause: err });
  }
  const { Client } = pgLibrary();
  const client = new Client({ host: place.hostname, port: place.port, database: place.database, application_name: 'weir-info', connectionTimeoutMillis: 5_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ active: boolean; held: string | null }>(
      'SELECT active, pg_size_pretty(pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)) AS held FROM pg_replication_slots WHERE slot_name = $1',
      [slot],
    );
    const found = rows[0];
    if (found === undefined) return `replication slot '${slot}' on ${claim.scope}: dropped`;
    return `replication slot '${slot}' on ${claim.scope}: still there${found.active ? ' and in use' : ''}, holding ${found.held ?? 'no'} of WAL; drop it with: ${dropSlotSql(slot)}`;
  } catch (err) {
    return `replication slot '${slot}' on ${claim.scope}: may still be there (could not check: ${describeError(err)}); drop it with: ${dropSlotSql(slot)}`;
  } finally {
    await client.end().catch(() => {});
  }
}
