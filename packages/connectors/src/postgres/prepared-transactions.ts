import type { Client } from 'pg';
import { WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';

/** What an EXACTLY_ONCE PostgresSink hands to its committer: the prepared transaction's name and its transaction id. */
export interface PostgresCommittable {
  /** `<prefix>-<subtask>-<checkpoint>`: COMMIT PREPARED takes it. */
  readonly gid: string;
  /** txid_current() of the transaction: once the gid is gone, txid_status says whether it was committed or rolled back. */
  readonly xid: string;
}

export function gidOf(prefix: string, subtask: number, checkpointId: number): string {
  return `${prefix}-${subtask}-${checkpointId}`;
}

export function parseGid(prefix: string, gid: string): { subtask: number; checkpointId: number } | undefined {
  if (!gid.startsWith(`${prefix}-`)) return undefined;
  const match = /^(\d+)-(\d+)$/.exec(gid.slice(prefix.length + 1));
  return match === null ? undefined : { subtask: Number(match[1]), checkpointId: Number(match[2]) };
}

/** Fails with what to set when the server cannot prepare transactions (PostgreSQL's default). */
export async function requirePreparedTransactions(client: Client, where: string): Promise<void> {
  const { rows } = await client.query<{ max_prepared_transactions: string }>('SHOW max_prepared_transactions');
  const max = Number(rows[0]?.max_prepared_transactions ?? 0);
  if (max > 0) return;
  throw new WeirError(
    ConnectorErrorCode.POSTGRES_NOT_CONFIGURED,
    `the EXACTLY_ONCE PostgresSink commits through PREPARE TRANSACTION, but max_prepared_transactions is 0 on the PostgreSQL server at ${where} (its default): ` +
      'set max_prepared_transactions to at least the sink\'s parallelism times (max concurrent checkpoints + 1), for example ' +
      "ALTER SYSTEM SET max_prepared_transactions = 64 (or in postgresql.conf) and restart the server; or use DeliveryGuarantee.AT_LEAST_ONCE with an upsert",
  );
}

/**
 * Rolls back the prepared transactions of this prefix that belong to this subtask (old
 * subtask indexes k with k mod parallelism = this subtask, so after a rescale each old index
 * has one owner) and that no restored checkpoint promised: those named after a later
 * checkpoint than the restored one (all of them on a fresh start). The restored checkpoint's
 * own were committed before the writer was created (the runtime does that). A prepared
 * transaction keeps its row locks until it ends, so one left behind would block the rows it
 * wrote for good. Returns the names rolled back.
 */
export async function rollBackLingering(client: Client, prefix: string, subtask: number, parallelism: number, restoredCheckpointId: number | undefined): Promise<string[]> {
  const { rows } = await client.query<{ gid: string }>('SELECT gid FROM pg_prepared_xacts WHERE database = current_database() AND starts_with(gid, $1)', [`${prefix}-`]);
  const lingering = rows
    .map((r) => r.gid)
    .filter((gid) => {
      const parsed = parseGid(prefix, gid);
      return parsed !== undefined && parsed.subtask % parallelism === subtask && (restoredCheckpointId === undefined || parsed.checkpointId > restoredCheckpointId);
    });
  for (const gid of lingering) {
    await client.query(`ROLLBACK PREPARED ${literal(gid)}`).catch((err: unknown) => {
      // Another attempt of the same subtask may have ended it meanwhile.
      if ((err as { code?: string }).code !== '42704') throw err;
    });
  }
  return lingering;
}

/** A string literal for the statements that take no parameters (PREPARE TRANSACTION, COMMIT/ROLLBACK PREPARED). */
export function literal(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
