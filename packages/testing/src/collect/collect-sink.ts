import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WeirError, type Committer, type ConnectorContext, type Sink, type SinkWriter } from '@weir/api';
import { TestingErrorCode } from '../errors.ts';

/** The environment variable through which a MiniCluster tells its processes where CollectSinks write. */
export const COLLECT_DIR_ENV = 'MINICLUSTER_COLLECT_DIR';

/** Records a subtask handed over for one checkpoint. */
interface Committable {
  readonly subtask: number;
  readonly checkpointId: number;
  readonly records: unknown[];
}

/**
 * A sink whose records a test reads back (`JobExecution.collected(name)`), like Flink's
 * CollectSink of the test utilities, but through files: the sink runs in the MiniCluster's
 * TaskManager processes, which the MiniCluster points at a directory of its own. Exactly once
 * across failures and restores: records are buffered and handed over at each checkpoint
 * (two-phase commit, `<subtask>-chk-<id>.json` written by the committer once the checkpoint
 * completes, idempotently), and what remains at the end of a bounded input is written as
 * `<subtask>-end-<attempt>.json`, of which the reader takes the newest attempt's. Records must
 * be JSON values.
 */
export class CollectSink<T> implements Sink<T> {
  constructor(readonly name: string) {
    if (typeof name !== 'string' || !/^[\w-]+$/.test(name)) {
      throw new WeirError(TestingErrorCode.INVALID_COLLECT_NAME, `a CollectSink name is letters, digits, - and _ (it names a directory), got ${JSON.stringify(name)}`);
    }
  }

  createWriter(context: ConnectorContext): SinkWriter<T> {
    return new CollectSinkWriter<T>(collectDir(this.name), context);
  }

  createCommitter(): Committer<unknown> {
    const dir = collectDir(this.name);
    return {
      commit(committables) {
        for (const c of committables as readonly Committable[]) writeAtomically(join(dir, `${c.subtask}-chk-${String(c.checkpointId).padStart(8, '0')}.json`), c.records);
      },
    };
  }
}

class CollectSinkWriter<T> implements SinkWriter<T> {
  #buffer: unknown[] = [];
  #ended = false;

  constructor(
    private readonly dir: string,
    private readonly context: ConnectorContext,
  ) {}

  write(record: T): void {
    this.#buffer.push(record);
  }

  flush(endOfInput: boolean): void {
    if (!endOfInput || this.#ended) return;
    // Without checkpointing no checkpoint ever commits: the end of the input is the last chance.
    this.#ended = true;
    writeAtomically(join(this.dir, `${this.context.subtaskIndex}-end-${String(this.context.attemptNumber).padStart(4, '0')}.json`), this.#take());
  }

  prepareCommit(checkpointId: number): Committable[] {
    return [{ subtask: this.context.subtaskIndex, checkpointId, records: this.#take() }];
  }

  close(): void {}

  #take(): unknown[] {
    const records = this.#buffer;
    this.#buffer = [];
    return records;
  }
}

function collectDir(name: string): string {
  const root = process.env[COLLECT_DIR_ENV];
  if (root === undefined || root === '') {
    throw new WeirError(
      TestingErrorCode.NOT_IN_MINI_CLUSTER,
      `CollectSink '${name}' runs only in a cluster that @weir/testing's MiniCluster started (${COLLECT_DIR_ENV} is unset); use a real sink in production jobs`,
    );
  }
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Whole or not at all: the test process may read the directory at any moment. */
function writeAtomically(path: string, records: readonly unknown[]): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(records));
  renameSync(temp, path);
}
