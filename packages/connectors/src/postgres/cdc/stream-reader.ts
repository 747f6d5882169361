import type { LogicalReplicationService, Pgoutput } from 'pg-logical-replication';
import { createLogger, WeirError, type Logger } from '@weir/common';
import { ConnectorErrorCode } from '../../errors.ts';
import { replicationLibrary } from '../postgres-library.ts';
import { clientConfig, databaseError, postgresFailure, type PostgresConnectionOptions } from '../postgres-connection.ts';
import type { ChangeEvent } from './change-event.ts';

/** A committed transaction's changes of the captured tables, and where the stream resumes after it. */
export interface CommittedTransaction {
  readonly events: ChangeEvent[];
  /** The commit's end LSN: the stream resumes after it. */
  readonly endLsn: string;
  readonly commitTimeMs: number;
}

/** Transactions decoded ahead of the reader; beyond it the stream is paused (backpressure reaches the server's walsender). */
const MAX_QUEUED_TRANSACTIONS = 1_000;

export interface StreamReaderOptions {
  readonly connection: PostgresConnectionOptions;
  readonly slotName: string;
  readonly publicationName: string;
  /** `schema.table` of the captured tables: changes of others (a publication shared with more tables) are dropped. */
  readonly tables: ReadonlySet<string>;
  readonly startLsn: string;
  readonly subtask: number;
  /** Called when a transaction was queued or the stream failed. */
  readonly onAvailable: () => void;
}

/**
 * The change stream of a logical replication slot with pgoutput, through pg-logical-replication:
 * transactions are queued whole, on their commit, with the commit's end LSN. The slot's
 * confirmed flush LSN advances only by `confirm(lsn)` (the reader calls it when a checkpoint
 * completes): the library's automatic acknowledgements are off, and keepalive requests are
 * answered with the last confirmed LSN, so the server keeps every change no completed
 * checkpoint holds.
 */
export class StreamReader {
  readonly #logger: Logger;
  readonly #queue: CommittedTransaction[] = [];
  #service: LogicalReplicationService | undefined;
  #current: { events: ChangeEvent[]; xid: number; commitTimeMs: number } | undefined;
  #confirmed: string;
  /** Every transaction that committed before this LSN has been queued (or had no change of the captured tables). */
  #caughtUp: string;
  #failure: WeirError | undefined;
  #room: (() => void) | undefined;

  constructor(private readonly options: StreamReaderOptions) {
    this.#logger = createLogger('postgres-cdc-stream', { subtask: options.subtask });
    this.#confirmed = options.startLsn;
    this.#caughtUp = options.startLsn;
  }

  get failure(): WeirError | undefined {
    return this.#failure;
  }

  /**
   * With nothing queued: the LSN the reader's position may move to although no captured table
   * changed, so a checkpoint confirms it and the server can release the WAL that other tables
   * (or other databases) wrote meanwhile. Without it, a slot of a quiet table holds the
   * server's WAL back forever while the rest of the server is busy. Commits without a change of
   * the captured tables and the heartbeat's messages (heartbeat.ts) move it.
   */
  get caughtUpLsn(): string {
    return this.#caughtUp;
  }

  /** The next committed transaction, if one is queued. */
  take(): CommittedTransaction | undefined {
    const transaction = this.#queue.shift();
    if (this.#queue.length < MAX_QUEUED_TRANSACTIONS / 2) {
      this.#room?.();
      this.#room = undefined;
    }
    return transaction;
  }

  async start(): Promise<void> {
    const { LogicalReplicationService, PgoutputPlugin } = replicationLibrary();
    const { connection, slotName, publicationName, startLsn } = this.options;
    const service = new LogicalReplicationService(clientConfig(connection, 'weir-postgres-cdc'), {
      acknowledge: { auto: false, timeoutSeconds: 0 },
      flowControl: { enabled: true },
    });
    this.#service = service;
    service.on('data', (_lsn: string, message: Pgoutput.Message) => this.#handle(message));
    service.on('heartbeat', (_lsn: string, _timestamp: number, shouldRespond: boolean) => {
      if (shouldRespond) void service.acknowledge(this.#confirmed).catch(() => {});
    });
    service.on('error', (err: Error) => this.#fail(err));
    // `messages`: the heartbeat's logical decoding messages (heartbeat.ts) come in WAL order with the changes.
    const plugin = new PgoutputPlugin({ protoVersion: 1, publicationNames: [publicationName], messages: true });
    // A slot stays active for a while after its reader's process died (until the server notices the connection is gone): try again for a bit.
    for (let attempt = 0; ; attempt++) {
      const started = new Promise<void>((resolve) => service.once('start', () => resolve()));
      const subscribed = service.subscribe(plugin, slotName, startLsn).then(
        () => {
          if (!service.isStop()) this.#fail(new Error('the replication stream ended'));
        },
        (err: unknown) => err,
      );
      const outcome = await Promise.race([started.then(() => undefined), subscribed]);
      if (outcome === undefined) break;
      if (databaseError(outcome)?.code === '55006' && attempt < 30) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      throw this.#describe(outcome);
    }
    this.#logger.info({ slotName, startLsn }, 'streaming changes');
  }

  /** Lets the server release the WAL up to `lsn` (a completed checkpoint's position). */
  confirm(lsn: string): void {
    this.#confirmed = lsn;
    void this.#service?.acknowledge(lsn).catch(() => {});
  }

  async close(): Promise<void> {
    this.#room?.();
    const service = this.#service;
    this.#service = undefined;
    await service?.destroy().catch(() => {});
  }

  #advance(lsn: string): void {
    if (compareLsn(lsn, this.#caughtUp) > 0) this.#caughtUp = lsn;
  }

  async #handle(message: Pgoutput.Message): Promise<void> {
    switch (message.tag) {
      case 'begin':
        this.#current = { events: [], xid: message.xid, commitTimeMs: Number(BigInt(message.commitTime as bigint) / 1000n) };
        return;
      case 'insert':
        this.#add(message.relation, null, message.new, 'c');
        return;
      case 'update':
        this.#add(message.relation, message.old, message.new, 'u');
        return;
      case 'delete':
        this.#add(message.relation, message.old ?? message.key, null, 'd');
        return;
      case 'truncate':
        this.#fail(new WeirError(ConnectorErrorCode.POSTGRES_ERROR, `table(s) ${message.relations.map((r) => `${r.schema}.${r.name}`).join(', ')} were truncated: a PostgresCdcSource cannot express TRUNCATE as row changes; re-create the job (a new slot and snapshot)`));
        return;
      case 'commit': {
        const current = this.#current;
        this.#current = undefined;
        if (current === undefined || message.commitEndLsn === null) return;
        const lsn = message.commitEndLsn;
        this.#advance(lsn);
        if (current.events.length === 0) return;
        this.#queue.push({ events: current.events.map((e) => ({ ...e, source: { ...e.source, lsn } })), endLsn: lsn, commitTimeMs: current.commitTimeMs });
        this.options.onAvailable();
        if (this.#queue.length >= MAX_QUEUED_TRANSACTIONS) await new Promise<void>((resolve) => (this.#room = resolve));
        return;
      }
      case 'message':
        // A non-transactional message comes when its WAL record is decoded: every transaction
        // that committed before it has come already (transactions come whole, at their commit).
        if (!message.transactional && this.#current === undefined && message.messageLsn !== null) this.#advance(message.messageLsn);
        return;
      default:
        // relation, type, origin: the parser keeps relations itself; nothing to emit.
        return;
    }
  }

  #add(relation: Pgoutput.MessageRelation, before: Record<string, unknown> | null, after: Record<string, unknown> | null, op: 'c' | 'u' | 'd'): void {
    const current = this.#current;
    const name = `${relation.schema}.${relation.name}`;
    if (current === undefined || !this.options.tables.has(name)) return;
    current.events.push({
      before,
      after,
      op,
      source: { connector: 'postgresql', db: this.options.connection.database, schema: relation.schema, table: relation.name, lsn: null, txId: current.xid, ts_ms: current.commitTimeMs, snapshot: false },
      ts_ms: Date.now(),
    });
  }

  #fail(err: unknown): void {
    this.#failure ??= this.#describe(err);
    this.options.onAvailable();
  }

  #describe(err: unknown): WeirError {
    return postgresFailure(err, this.options.connection, `streaming from replication slot '${this.options.slotName}'`);
  }
}

/** Orders two LSNs written as PostgreSQL does (`16/B374D848`: two hex halves of a 64-bit position). */
export function compareLsn(a: string, b: string): number {
  const value = (lsn: string) => {
    const [high = '0', low = '0'] = lsn.split('/');
    return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
  };
  const difference = value(a) - value(b);
  return difference === 0n ? 0 : difference > 0n ? 1 : -1;
}
