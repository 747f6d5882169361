import type { Client } from 'pg';
import { AvailabilitySignal, InputStatus, type ReaderOutput, type SplitSourceReader } from '@weir/api';
import { createLogger, type Logger } from '@weir/common';
import { connect, postgresFailure, type PostgresConnectionOptions } from '../postgres-connection.ts';
import { literal } from '../prepared-transactions.ts';
import { createOrFindSlot, ensurePublication, lookUpTables, requireLogicalWal, type CapturedTable } from './cdc-catalog.ts';
import type { PostgresCdcSplit } from './cdc-split.ts';
import type { ChangeEvent, DebeziumDeserializationSchema } from './change-event.ts';
import { SnapshotChunks } from './snapshot-reader.ts';
import { CdcHeartbeat } from './heartbeat.ts';
import { compareLsn, StreamReader } from './stream-reader.ts';

/** Where a CDC source starts (Flink CDC's StartupOptions): a snapshot then the log, the log from now, or the snapshot alone. */
export type StartupMode = 'initial' | 'latest' | 'snapshot-only';

export interface PostgresCdcReaderOptions<T> {
  readonly connection: PostgresConnectionOptions;
  readonly tables: readonly string[];
  readonly slotName: string;
  readonly publicationName: string;
  readonly startup: StartupMode;
  readonly deserializer: DebeziumDeserializationSchema<T>;
  readonly subtask: number;
  /** heartbeat.ts; 0 turns it off. */
  readonly heartbeatIntervalMs: number;
}

type Position = { -readonly [K in keyof PostgresCdcSplit]: PostgresCdcSplit[K] };

/**
 * Reads the source's one split: the snapshot (each table in primary key order, inside one
 * REPEATABLE READ transaction that imported the slot's exported snapshot), then the change
 * stream from the slot's consistent point. A checkpoint keeps the position (the table and last
 * key of the snapshot, or the end LSN of the last transaction emitted; a transaction's changes
 * are emitted in one poll, so a checkpoint never falls inside one), and the slot's confirmed
 * flush LSN moves to a checkpoint's position only when that checkpoint completes.
 */
export class PostgresCdcReader<T> implements SplitSourceReader<T, PostgresCdcSplit> {
  readonly #logger: Logger;
  readonly #signal = new AvailabilitySignal();
  #position: Position | undefined;
  #started = false;
  #setUp: Promise<void> | undefined;
  #ready = false;
  #noMoreSplits = false;
  #failure: unknown;
  #client: Client | undefined;
  #tables = new Map<string, CapturedTable>();
  #chunks: SnapshotChunks | undefined;
  #rows: Record<string, unknown>[] = [];
  #next = 0;
  #busy = false;
  #snapshotTimeMs = 0;
  #stream: StreamReader | undefined;
  #heartbeat: CdcHeartbeat | undefined;
  /** The stream position each checkpoint took, until it completes (or a newer one does). */
  readonly #checkpointLsns = new Map<number, string>();

  constructor(private readonly options: PostgresCdcReaderOptions<T>) {
    this.#logger = createLogger('postgres-cdc-reader', { subtask: options.subtask });
  }

  start(): void {
    this.#started = true;
    this.#ensureSetUp();
  }

  addSplits(splits: readonly PostgresCdcSplit[]): void {
    const split = splits[0];
    if (split === undefined) return;
    this.#position = { ...split };
    this.#ensureSetUp();
  }

  notifyNoMoreSplits(): void {
    this.#noMoreSplits = true;
    this.#signal.signal();
  }

  pollNext(output: ReaderOutput<T>): InputStatus {
    if (this.#failure !== undefined) throw this.#failure;
    const position = this.#position;
    if (position === undefined) return this.#noMoreSplits ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
    if (!this.#ready || this.#busy) return InputStatus.NOTHING_AVAILABLE;
    return position.phase === 'snapshot' ? this.#pollSnapshot(position, output) : this.#pollStream(position, output);
  }

  isAvailable(): Promise<void> {
    return this.#signal.wait();
  }

  snapshotState(checkpointId: number): PostgresCdcSplit[] {
    const position = this.#position;
    if (position === undefined) return [];
    if (position.phase === 'stream' && position.lsn !== null) this.#checkpointLsns.set(checkpointId, position.lsn);
    return [{ ...position }];
  }

  notifyCheckpointComplete(checkpointId: number): void {
    let confirmed: string | undefined;
    for (const [id, lsn] of this.#checkpointLsns) {
      if (id > checkpointId) continue;
      confirmed = lsn;
      this.#checkpointLsns.delete(id);
    }
    if (confirmed !== undefined) this.#stream?.confirm(confirmed);
  }

  async close(): Promise<void> {
    await this.#setUp?.catch(() => {});
    await this.#heartbeat?.close();
    await this.#stream?.close();
    await this.#client?.end().catch(() => {});
  }

  #pollSnapshot(position: Position, output: ReaderOutput<T>): InputStatus {
    const row = this.#rows[this.#next];
    if (row !== undefined) {
      this.#next++;
      const table = this.#tables.get(position.tables[0]!)!;
      position.lastKey = table.primaryKey.map((column) => row[column]);
      // The split's own output: the source operator made it at assignment, and it holds the reader's watermark until the split emits.
      output.createOutputForSplit(position.splitId).collect(this.options.deserializer.deserialize(this.#snapshotEvent(table, row, position.lsn)), this.#snapshotTimeMs);
      return InputStatus.MORE_AVAILABLE;
    }
    this.#work(async () => {
      const chunks = this.#chunks;
      if (chunks !== undefined && !chunks.done) {
        this.#rows = await chunks.next();
        this.#next = 0;
        return;
      }
      this.#rows = [];
      position.tables = position.tables.slice(1);
      position.lastKey = null;
      if (position.tables.length > 0) {
        this.#chunks = new SnapshotChunks(this.#client!, this.#tables.get(position.tables[0]!)!, null);
        return;
      }
      await this.#client!.query('COMMIT');
      this.#logger.info({ exported: position.exported, lsn: position.lsn }, position.exported ? 'snapshot read from the slot\'s exported snapshot' : 'snapshot read (resumed or slot found existing: from a newer snapshot, see the README)');
      position.phase = 'stream';
      if (this.options.startup !== 'snapshot-only') {
        await this.#startStream(position).catch((err: unknown) => {
          throw postgresFailure(err, this.options.connection, `starting the change stream of slot '${this.options.slotName}' after the snapshot`);
        });
      }
    });
    return InputStatus.NOTHING_AVAILABLE;
  }

  #pollStream(position: Position, output: ReaderOutput<T>): InputStatus {
    if (this.options.startup === 'snapshot-only') {
      this.#position = undefined;
      output.releaseOutputForSplit(position.splitId);
      return this.#noMoreSplits ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
    }
    const stream = this.#stream!;
    const transaction = stream.take();
    if (transaction === undefined) {
      if (stream.failure !== undefined) throw stream.failure;
      // Nothing queued: every captured change before the stream's caught-up LSN was emitted.
      if (position.lsn === null || compareLsn(stream.caughtUpLsn, position.lsn) > 0) position.lsn = stream.caughtUpLsn;
      return InputStatus.NOTHING_AVAILABLE;
    }
    const splitOutput = output.createOutputForSplit(position.splitId);
    for (const event of transaction.events) splitOutput.collect(this.options.deserializer.deserialize(event), transaction.commitTimeMs);
    position.lsn = transaction.endLsn;
    return InputStatus.MORE_AVAILABLE;
  }

  #snapshotEvent(table: CapturedTable, row: Record<string, unknown>, lsn: string | null): ChangeEvent {
    return {
      before: null,
      after: row,
      op: 'r',
      source: { connector: 'postgresql', db: this.options.connection.database, schema: table.schema, table: table.table, lsn, txId: null, ts_ms: this.#snapshotTimeMs, snapshot: true },
      ts_ms: Date.now(),
    };
  }

  /** Runs `task` off the poll loop; pollNext answers NOTHING_AVAILABLE meanwhile, and the task's end wakes it. */
  /** Runs a step of the snapshot off the poll; a failure not already described is one of reading the snapshot. */
  #work(task: () => Promise<void>): void {
    this.#busy = true;
    task().then(
      () => {
        this.#busy = false;
        this.#signal.signal();
      },
      (err: unknown) => {
        this.#failure = postgresFailure(err, this.options.connection, 'reading the snapshot');
        this.#signal.signal();
      },
    );
  }

  #ensureSetUp(): void {
    if (!this.#started || this.#position === undefined || this.#setUp !== undefined) return;
    this.#setUp = this.#prepare(this.#position).then(
      () => {
        this.#ready = true;
        this.#signal.signal();
      },
      (err: unknown) => {
        this.#failure = postgresFailure(err, this.options.connection, 'starting the PostgresCdcSource');
        this.#signal.signal();
      },
    );
  }

  async #prepare(position: Position): Promise<void> {
    const { connection, startup, tables, slotName, publicationName } = this.options;
    const where = `${connection.hostname}:${connection.port}/${connection.database}`;
    const client = (this.#client = await connect(connection, 'weir-postgres-cdc-snapshot'));
    if (startup !== 'snapshot-only') await requireLogicalWal(client, where);
    for (const table of await lookUpTables(client, tables, `database '${connection.database}' at ${connection.hostname}:${connection.port}`)) this.#tables.set(table.name, table);
    if (startup !== 'snapshot-only') await ensurePublication(client, publicationName, [...this.#tables.values()]);
    if (position.phase === 'stream') {
      await this.#startStream(position);
      return;
    }
    this.#snapshotTimeMs = Date.now();
    const slot = startup === 'snapshot-only' || position.lsn !== null ? undefined : await createOrFindSlot(connection, slotName, true);
    if (slot !== undefined) position.lsn = slot.lsn;
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    if (slot?.created === true) {
      try {
        await client.query(`SET TRANSACTION SNAPSHOT ${literal(slot.snapshotName)}`);
      } finally {
        // The imported snapshot lives on in this transaction; the slot's connection is no longer needed.
        await slot.replication.end().catch(() => {});
      }
      position.exported = true;
    } else {
      position.exported = false;
    }
    if (position.tables.length === 0) {
      this.#chunks = undefined;
      return;
    }
    this.#chunks = new SnapshotChunks(client, this.#tables.get(position.tables[0]!)!, position.lastKey);
  }

  async #startStream(position: Position): Promise<void> {
    const { connection, slotName, publicationName, subtask } = this.options;
    if (position.lsn === null) position.lsn = (await createOrFindSlot(connection, slotName, false)).lsn;
    const stream = new StreamReader({ connection, slotName, publicationName, tables: new Set(this.#tables.keys()), startLsn: position.lsn, subtask, onAvailable: () => this.#signal.signal() });
    this.#stream = stream;
    await stream.start();
    this.#heartbeat = new CdcHeartbeat(connection, this.options.heartbeatIntervalMs, this.#logger);
    this.#heartbeat.start();
  }
}
