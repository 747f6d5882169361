import type { Client } from 'pg';
import type { Committer } from '@weir/api';
import { createLogger, WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import { connect, databaseError, postgresFailure, type PostgresConnectionOptions } from './postgres-connection.ts';
import { literal, type PostgresCommittable } from './prepared-transactions.ts';

/**
 * Commits the prepared transactions completed checkpoints promised (COMMIT PREPARED), on one
 * connection kept from one commit to the next. Idempotent, as the runtime needs (a restore
 * commits again what a failed attempt may already have committed): a name the server no longer
 * knows was committed, unless txid_status says its transaction was rolled back, in which case
 * its rows are gone and the job fails with POSTGRES_TRANSACTION_LOST.
 */
export class PostgresCommitter implements Committer<PostgresCommittable> {
  readonly #logger = createLogger('postgres-committer');
  #client: Client | undefined;

  constructor(private readonly connection: PostgresConnectionOptions) {}

  async commit(committables: readonly PostgresCommittable[]): Promise<void> {
    if (committables.length === 0) return;
    // Test hook (not a WEIR_ variable, which would be read as a config key): widens the window between a completed checkpoint and its commit.
    const delayMs = Number(process.env['TEST_POSTGRES_COMMIT_DELAY_MS'] ?? 0);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    for (const committable of committables) {
      const { gid, xid } = requireCommittable(committable);
      try {
        const client = (this.#client ??= await connect(this.connection, 'weir-postgres-committer'));
        await this.#commitOne(client, gid, xid);
      } catch (err) {
        // Its connection may be broken: the next commit (after a restart) starts on a new one.
        await this.close();
        throw postgresFailure(err, this.connection, `committing prepared transaction ${gid}`);
      }
    }
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  async #commitOne(client: Client, gid: string, xid: string): Promise<void> {
    try {
      await client.query(`COMMIT PREPARED ${literal(gid)}`);
      this.#logger.debug({ gid }, 'prepared transaction committed');
      return;
    } catch (err) {
      if (databaseError(err)?.code !== '42704') throw err;
    }
    const { rows } = await client.query<{ status: string | null }>('SELECT txid_status($1::bigint) AS status', [xid]);
    const status = rows[0]?.status ?? null;
    if (status === 'aborted') {
      throw new WeirError(
        ConnectorErrorCode.POSTGRES_TRANSACTION_LOST,
        `prepared transaction ${gid} (txid ${xid}), which a completed checkpoint promised, was rolled back instead of committed: someone ran ROLLBACK PREPARED on it, ` +
          'or another job or sink uses the same transaction id prefix and rolled it back as lingering on its start (give each its own setTransactionIdPrefix); its rows are lost',
      );
    }
    this.#logger.debug({ gid, status }, 'prepared transaction was committed before');
  }
}

function requireCommittable(value: unknown): PostgresCommittable {
  const { gid, xid } = (value ?? {}) as Partial<PostgresCommittable>;
  if (typeof gid !== 'string' || typeof xid !== 'string' || !/^\d+$/.test(xid)) {
    throw new WeirError(ConnectorErrorCode.INVALID_RESTORED_STATE, `a PostgresSink committable is { gid, xid }, got ${JSON.stringify(value)}`);
  }
  return { gid, xid };
}
