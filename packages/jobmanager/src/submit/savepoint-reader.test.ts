import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isWeirError, type CheckpointMetadata } from '@weir/common';
import { openStorage, type S3Settings } from '@weir/storage';
import { assignedState } from '../checkpoint/state-assignment/assign-state.ts';
import { recordingLogger } from '@weir/common/testing';
import { jobGraph, vertex } from '../testing/fixtures.ts';
import { readInitialRestore } from './savepoint-reader.ts';

const s3: S3Settings = { endpoint: undefined, accessKey: undefined, secretKey: undefined, region: 'us-east-1', pathStyleAccess: true };
const open = (url: string) => openStorage(url, s3);

const savepointMetadata: CheckpointMetadata = {
  version: 1,
  kind: 'savepoint',
  jobId: 'old-job',
  jobName: 'sums v1',
  checkpointId: 12,
  timestamp: 5,
  operators: [
    {
      operatorId: 'op-sum',
      uid: 'sum',
      name: 'Sum',
      parallelism: 2,
      maxParallelism: 128,
      subtasks: [
        { keyed: [{ backend: 'heap', keyGroupRange: { start: 0, end: 63 }, offsets: [0], handle: { kind: 'file', path: 'sum-0', size: 5 }, states: {} }] },
        { keyed: [{ backend: 'heap', keyGroupRange: { start: 64, end: 127 }, offsets: [0], handle: { kind: 'file', path: 'sum-1', size: 5 }, states: {} }] },
      ],
    },
  ],
};

/** A savepoint directory on disk: `_metadata` and the state files it names. */
function savepointDir(metadata: string | CheckpointMetadata = savepointMetadata, files: Record<string, string> = { 'sum-0': 'aaaaa', 'sum-1': 'bbbbb' }): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'weir-sp-')), 'savepoint-abc');
  mkdirSync(dir);
  writeFileSync(join(dir, '_metadata'), typeof metadata === 'string' ? metadata : JSON.stringify(metadata));
  for (const [name, data] of Object.entries(files)) writeFileSync(join(dir, name), data);
  return dir;
}

async function read(path: string, graph = jobGraph(vertex('sum', 3)), allowNonRestoredState = false) {
  const { logger, warnings } = recordingLogger();
  const result = await readInitialRestore({ path, allowNonRestoredState, metadataMaxBytes: 1024 ** 2 }, graph, open, logger).catch((e: unknown) => e);
  return { result, warnings };
}

async function failure(path: string, graph = jobGraph(vertex('sum', 3))): Promise<{ code: string; message: string }> {
  const { result } = await read(path, graph);
  if (!isWeirError(result)) throw new Error(`expected a WeirError, got ${String(result)}`);
  return { code: result.code, message: result.message };
}

describe('readInitialRestore', () => {
  it('reads a savepoint directory (or its _metadata) and maps its state onto the job at a new parallelism', async () => {
    const dir = savepointDir();
    for (const path of [dir, `${dir}/`, `${dir}/_metadata`, pathToFileURL(dir).href]) {
      const { result } = await read(path);
      if (isWeirError(result) || result instanceof Error) throw result;
      const restore = result as Awaited<ReturnType<typeof readInitialRestore>>;
      expect(restore.point.checkpointId).toBe(12);
      expect(restore.point.checkpointPath).toBe(pathToFileURL(dir).href);
      expect(restore.allowNonRestoredState).toBe(false);
      const paths = [0, 1, 2].map((i) =>
        (assignedState(restore.point.assignment, 'sum', i).operators['op-sum']?.keyed ?? []).map((h) => (h.backend === 'heap' && h.handle.kind === 'file' ? h.handle.path : '?')),
      );
      expect(paths).toEqual([['sum-0'], ['sum-0', 'sum-1'], ['sum-1']]);
    }
    expect(readdirSync(dir).sort()).toEqual(['_metadata', 'sum-0', 'sum-1']);
  });

  it('refuses a path that does not exist or holds no _metadata', async () => {
    const missing = join(tmpdir(), 'weir-no-such-savepoint-dir');
    expect(await failure(missing)).toEqual({
      code: 'SAVEPOINT_NOT_FOUND',
      message: `no savepoint at ${missing}: the directory does not exist or is empty; give the directory of a savepoint or retained checkpoint (the one holding _metadata)`,
    });
    const incomplete = savepointDir();
    const chk = join(incomplete, 'chk-3');
    mkdirSync(chk);
    writeFileSync(join(chk, 'op-1'), 'x');
    expect(await failure(chk)).toEqual({
      code: 'SAVEPOINT_NOT_FOUND',
      message: `${chk} is not a savepoint: it has no _metadata (an incomplete checkpoint has none); give the directory of a savepoint or completed retained checkpoint, e.g. <checkpoint dir>/<jobId>/chk-<n>`,
    });
  });

  it('refuses a _metadata linked to /dev/zero, a sparse file past state.metadata.max-size and a file of other bytes, showing none of them', async () => {
    const zero = savepointDir('');
    rmSync(join(zero, '_metadata'));
    symlinkSync('/dev/zero', join(zero, '_metadata'));
    expect(await failure(zero)).toEqual({
      code: 'INVALID_SAVEPOINT',
      message: `${zero} is not a savepoint: ${join(zero, '_metadata')} is a symbolic link to a file outside ${zero}; files of a checkpoint or savepoint are read only from below its directory`,
    });
    const sparse = savepointDir('');
    truncateSync(join(sparse, '_metadata'), 1_500_000_000);
    expect(await failure(sparse)).toEqual({
      code: 'INVALID_SAVEPOINT',
      message: `${sparse} is not a savepoint: ${join(sparse, '_metadata')} is 1500000000 bytes, more than the 1048576 bytes read from it here (state.metadata.max-size)`,
    });
    const shadow = savepointDir('root:*:20201:0:99999:7:::\ndaemon:*:20201:0:99999:7:::\n');
    expect(await failure(shadow)).toEqual({
      code: 'INVALID_SAVEPOINT',
      message: `${shadow} is not a savepoint: its _metadata cannot be read as checkpoint metadata (it is not JSON (it does not start as JSON))`,
    });
  });

  it('refuses _metadata that is not JSON or not checkpoint metadata', async () => {
    const garbage = savepointDir('{"version": 1, "operat');
    expect((await failure(garbage)).code).toBe('INVALID_SAVEPOINT');
    expect((await failure(garbage)).message).toMatch(new RegExp(`^${garbage} is not a savepoint: its _metadata cannot be read as checkpoint metadata \\(it is not JSON \\(`));
    const shape = savepointDir({ ...savepointMetadata, operators: [{ ...savepointMetadata.operators[0]!, subtasks: [null] }] });
    expect(await failure(shape)).toEqual({
      code: 'INVALID_SAVEPOINT',
      message: `${shape} is not a savepoint: its _metadata cannot be read as checkpoint metadata (operator entry 0: it does not list state for each of its 2 subtasks)`,
    });
  });

  it('refuses a savepoint with a state file missing or truncated, and deletes nothing', async () => {
    const missing = savepointDir(savepointMetadata, { 'sum-0': 'aaaaa' });
    expect(await failure(missing)).toEqual({
      code: 'INVALID_SAVEPOINT',
      message: `savepoint ${missing} is incomplete: file sum-1 (state of uid 'sum' ("Sum", ID op-sum) subtask 1) is missing; restore from a complete copy of it`,
    });
    const truncated = savepointDir(savepointMetadata, { 'sum-0': 'aaaaa', 'sum-1': 'bb' });
    expect(await failure(truncated)).toEqual({
      code: 'INVALID_SAVEPOINT',
      message: `savepoint ${truncated} is incomplete: file sum-1 (state of uid 'sum' ("Sum", ID op-sum) subtask 1) has 2 bytes where 5 were written: it is truncated or was replaced; restore from a complete copy of it`,
    });
    expect(readdirSync(truncated).sort()).toEqual(['_metadata', 'sum-0', 'sum-1']);
  });

  it("refuses another job's state unless allowNonRestoredState, and a changed max parallelism", async () => {
    const dir = savepointDir();
    const other = jobGraph(vertex('count', 2));
    expect(await failure(dir, other)).toEqual({
      code: 'UNMAPPED_STATE',
      message: `savepoint ${dir} holds state of an operator the job does not have: uid 'sum' ("Sum", ID op-sum); give the operators of the new job the uids they had, or pass -n (--allowNonRestoredState) to start without that state`,
    });
    const { result, warnings } = await read(dir, other, true);
    expect(isWeirError(result)).toBe(false);
    expect(warnings).toEqual([`not restoring the state of uid 'sum' ("Sum", ID op-sum) from savepoint ${dir}: the job has no such operator (allowNonRestoredState)`]);
    expect((await failure(dir, jobGraph({ ...vertex('sum', 2), maxParallelism: 64 }))).code).toBe('RESTORE_MISMATCH');
  });
});
