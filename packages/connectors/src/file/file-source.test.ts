import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import { Boundedness, InputStatus, type ConnectorContext } from '@weir/api';
import { CHUNK_SIZE } from './file-blocks.ts';
import { FileSource } from './file-source.ts';
import type { FileSourceReader } from './file-source-reader.ts';
import { TextLineInputFormat } from './text-line-input-format.ts';
import { readerOutputInto } from '@weir/api/testing';

const context = (subtaskIndex: number, parallelism: number): ConnectorContext => ({ jobId: 'j', subtaskIndex, parallelism, attemptNumber: 0 });

async function drain(reader: FileSourceReader, max = Number.POSITIVE_INFINITY): Promise<string[]> {
  const out: string[] = [];
  const output = readerOutputInto(out);
  while (out.length < max) {
    const status = reader.pollNext(output);
    if (status === InputStatus.END_OF_INPUT) break;
    if (status === InputStatus.NOTHING_AVAILABLE) await reader.isAvailable();
  }
  return out;
}

function source(path: string): FileSource {
  return FileSource.forRecordStreamFormat(new TextLineInputFormat(), path).build();
}

describe('FileSource', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'weir-file-source-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the lines of a file without line endings, \\n or \\r\\n, last line without newline included', async () => {
    const file = join(dir, 'in.txt');
    await writeFile(file, 'one\r\ntwo\n\nthree\r\nfour');
    const src = source(file);
    expect(src.boundedness).toBe(Boundedness.BOUNDED);
    const reader = src.createReader(context(0, 1));
    await reader.start();
    expect(await drain(reader)).toEqual(['one', 'two', '', 'three', 'four']);
    await reader.close();
  });

  it('deals the sorted visible files of a directory round-robin to the readers', async () => {
    for (const [name, text] of [
      ['c.txt', 'c1\nc2\n'],
      ['a.txt', 'a1\n'],
      ['b.txt', 'b1\nb2\nb3\n'],
      ['d.txt', 'd1\n'],
      ['.hidden', 'no\n'],
      ['_SUCCESS', 'no\n'],
    ]) {
      await writeFile(join(dir, name!), text!);
    }
    await mkdir(join(dir, 'sub'));
    await writeFile(join(dir, 'sub', 'x.txt'), 'no\n');
    const src = source(dir);
    expect(await drain(src.createReader(context(0, 2)))).toEqual(['a1', 'c1', 'c2']);
    expect(await drain(src.createReader(context(1, 2)))).toEqual(['b1', 'b2', 'b3', 'd1']);
    expect(await drain(src.createReader(context(0, 1)))).toEqual(['a1', 'b1', 'b2', 'b3', 'c1', 'c2', 'd1']);
    expect(await drain(src.createReader(context(4, 5)))).toEqual([]);
  });

  it('keeps a multi-byte character that crosses a chunk boundary intact, and lines longer than a chunk', async () => {
    const prefix = 'x'.repeat(CHUNK_SIZE - 1 - 'short\n'.length);
    // '€' is 3 bytes: the first chunk ends after its first byte.
    expect(Buffer.byteLength(`short\n${prefix}€`, 'utf8')).toBe(CHUNK_SIZE + 2);
    const long = 'é'.repeat(CHUNK_SIZE);
    const file = join(dir, 'utf8.txt');
    await writeFile(file, `short\n${prefix}€tail\n日本語\n${long}\n🙂`);
    expect(await drain(source(file).createReader(context(0, 1)))).toEqual(['short', `${prefix}€tail`, '日本語', long, '🙂']);
  });

  it('snapshots (file, byte offset of the next line) and a restored reader continues exactly there', async () => {
    await writeFile(join(dir, 'a.txt'), 'héllo\nwörld\nlast\n');
    await writeFile(join(dir, 'b.txt'), 'b1\nb2\n');
    const src = source(dir);
    const reader = src.createReader(context(0, 1));
    expect(reader.snapshotState()).toBeNull();
    expect(await drain(reader, 2)).toEqual(['héllo', 'wörld']);
    const position = reader.snapshotState();
    expect(position).toEqual({ file: join(dir, 'a.txt'), offset: 14 });
    await reader.close();
    const restored = src.createReader(context(0, 1), [position]);
    expect(restored.snapshotState()).toEqual(position);
    expect(await drain(restored)).toEqual(['last', 'b1', 'b2']);
    expect(restored.snapshotState()).toEqual({ file: join(dir, 'b.txt'), offset: 6 });
    expect(await drain(src.createReader(context(0, 1), [{ file: join(dir, 'a.txt'), offset: 19 }]))).toEqual(['b1', 'b2']);
    expect(await drain(src.createReader(context(0, 1), [restored.snapshotState()]))).toEqual([]);
  });

  it('restores a reader that had read nothing (null, or undefined after MessagePack) from the beginning', async () => {
    await writeFile(join(dir, 'a.txt'), 'one\ntwo\n');
    const src = source(dir);
    expect(await drain(src.createReader(context(0, 1), [null]))).toEqual(['one', 'two']);
    expect(await drain(src.createReader(context(0, 1), [undefined]))).toEqual(['one', 'two']);
  });

  it('rejects a restore from several or no reader states, and a malformed position', async () => {
    await writeFile(join(dir, 'a.txt'), 'one\n');
    const src = source(dir);
    expect(() => src.createReader(context(0, 1), [null, null])).toThrow(
      'a FileSource reader resumes from exactly one reader state, got 2: changing the parallelism of a FileSource restore is not supported yet; ' +
        'restore it at the parallelism of the checkpoint',
    );
    expect(() => src.createReader(context(0, 1), [])).toThrow(/got 0/);
    try {
      src.createReader(context(0, 1), [{ file: 'a.txt', offset: -1 }]);
      expect.unreachable();
    } catch (err) {
      expect(isWeirError(err, 'INVALID_POSITION')).toBe(true);
      expect((err as Error).message).toBe(
        'a FileSource reader resumes from { file, offset } (the start of the next line) or null, got {"file":"a.txt","offset":-1}',
      );
    }
  });

  it('fails a restored reader whose file is no longer one of its files', async () => {
    await writeFile(join(dir, 'a.txt'), 'a1\n');
    await writeFile(join(dir, 'b.txt'), 'b1\n');
    const reader = source(dir).createReader(context(0, 2), [{ file: join(dir, 'b.txt'), offset: 0 }]);
    try {
      await drain(reader);
      expect.unreachable();
    } catch (err) {
      expect(isWeirError(err, 'INVALID_POSITION')).toBe(true);
      expect((err as Error).message).toBe(
        `file source reader 0 of 2 cannot resume in ${join(dir, 'b.txt')}: it is not one of its files; ` +
          'the input changed since the checkpoint (files added, removed or renamed), which a restore cannot follow',
      );
    }
    await reader.close();
  });

  it('fails start() with FILE_NOT_FOUND for a missing path, and pollNext after it', async () => {
    const reader = source(join(dir, 'missing')).createReader(context(0, 1));
    await expect(reader.start()).rejects.toSatisfy(
      (err) => isWeirError(err, 'FILE_NOT_FOUND') && err.message === `file source path ${join(dir, 'missing')} does not exist; give an existing file or directory`,
    );
    await reader.isAvailable();
    expect(() => reader.pollNext(readerOutputInto([]))).toThrow(/does not exist/);
  });

  it('reads a large file completely, one line per poll', async () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `line ${i} ${'ü'.repeat(i % 7)}`);
    const file = join(dir, 'big.txt');
    await writeFile(file, lines.join('\n') + '\n');
    const reader = source(file).createReader(context(0, 1));
    expect(await drain(reader)).toEqual(lines);
    await reader.close();
  });

  it('close() stops reading ahead', async () => {
    const file = join(dir, 'big.txt');
    await writeFile(file, 'x\n'.repeat(CHUNK_SIZE * 4));
    const reader = source(file).createReader(context(0, 1));
    expect(await drain(reader, 3)).toEqual(['x', 'x', 'x']);
    await reader.close();
  });

  it('rejects a missing path argument', () => {
    expect(() => FileSource.forRecordStreamFormat(new TextLineInputFormat(), '')).toThrow(/needs the path/);
  });
});
