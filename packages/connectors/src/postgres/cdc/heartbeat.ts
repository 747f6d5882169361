import type { Client } from 'pg';
import { describeError, systemClock, type Clock, type Logger, type TimerHandle } from '@weir/common';
import { connect, type PostgresConnectionOptions } from '../postgres-connection.ts';

/** The prefix of the logical decoding messages the heartbeat writes; pgoutput consumers without `messages` never see them. */
export const HEARTBEAT_PREFIX = 'weir_heartbeat';

/**
 * Flink CDC's `heartbeat.interval.ms`, without the heartbeat table Debezium's
 * `heartbeat.action.query` needs: every interval it writes a non-transactional logical
 * decoding message (`pg_logical_emit_message`, no table, no transaction) into the captured
 * database. The slot's change stream carries it in WAL order, after every transaction that
 * committed before it, so the stream may move its position to the message's LSN while the
 * captured tables are quiet, and the next checkpoint lets the server release the WAL that
 * other tables and databases wrote meanwhile. The server's keepalives cannot serve here:
 * pg-logical-replication hands them over ahead of the change messages it still queues.
 */
export class CdcHeartbeat {
  #client: Client | undefined;
  #timer: TimerHandle | undefined;
  #closed = false;
  #warned = false;

  constructor(
    private readonly connection: PostgresConnectionOptions,
    private readonly intervalMs: number,
    private readonly logger: Logger,
    private readonly clock: Clock = systemClock,
  ) {}

  start(): void {
    if (this.intervalMs > 0) this.#schedule();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) this.clock.clearTimeout(this.#timer);
    await this.#client?.end().catch(() => {});
  }

  #schedule(): void {
    if (this.#closed) return;
    this.#timer = this.clock.setTimeout(() => void this.#beat().finally(() => this.#schedule()), this.intervalMs);
  }

  async #beat(): Promise<void> {
    try {
      this.#client ??= await connect(this.connection, 'weir-postgres-cdc-heartbeat');
      await this.#client.query(`SELECT pg_logical_emit_message(false, '${HEARTBEAT_PREFIX}', '')`);
    } catch (err) {
      // A lost connection is made again at the next beat; a heartbeat that cannot be written
      // costs only WAL retention while the tables are quiet, never the job.
      await this.#client?.end().catch(() => {});
      this.#client = undefined;
      if (!this.#warned && !this.#closed) {
        this.#warned = true;
        this.logger.warn(
          { err: describeError(err) },
          `the CDC heartbeat (pg_logical_emit_message every ${this.intervalMs} ms) failed: while the captured tables are quiet the slot holds the WAL the rest of the server writes; heartbeatInterval(0) turns the heartbeat off`,
        );
      }
    }
  }
}
