import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import { Boundedness } from '@weir/api';
import { SplitSourceHarness } from '@weir/api/testing';
import { CHUNK_SIZE } from './file-blocks.ts';
import { FileSource } from './file-source.ts';
import { TextLineInputFormat } from './text-line-input-format.ts';
import { readerOutputInto } from '@weir/api/testing';

function source(path: string, monitorMs?: number): FileSource {
  const builder = FileSource.forRecordStreamFormat(new TextLineInputFormat(), path);
  if (monitorMs !== undefined) builder.monitorContinuously(monitorMs);
  return builder.build();
}

async function readAll(path: string, parallelism = 1): Promise<string[][]> {
  const harness = await SplitSourceHarness.start(source(path), parallelism);
  const out = await harness.pollAll();
  await harness.close();
  return out;
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
    expect(source(file).boundedness).toBe(Boundedness.BOUNDED);
    expect(await readAll(file)).toEqual([['one', 'two', '', 'three', 'four']]);
  });

  it('reads every visible file of a directory once, in name order per reader, skipping hidden files and subdirectories', async () => {
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
    expect(await readAll(dir)).toEqual([['a1', 'b1', 'b2', 'b3', 'c1', 'c2', 'd1']]);
    const two = await readAll(dir, 2);
    expect(two.flat().sort()).toEqual(['a1', 'b1', 'b2', 'b3', 'c1', 'c2', 'd1']);
    expect((await readAll(dir, 5)).flat().length).toBe(7);
  });

  it('keeps a multi-byte character that crosses a chunk boundary intact, and lines longer than a chunk', async () => {
    const prefix = 'x'.repeat(CHUNK_SIZE - 1 - 'short\n'.length);
    // '€' is 3 bytes: the first chunk ends after its first byte.
    expect(Buffer.byteLength(`short\n${prefix}€`, 'utf8')).toBe(CHUNK_SIZE + 2);
    const long = 'é'.repeat(CHUNK_SIZE);
    const file = join(dir, 'utf8.txt');
    await writeFile(file, `short\n${prefix}€tail\n日本語\n${long}\n🙂`);
    expect(await readAll(file)).toEqual([['short', `${prefix}€tail`, '日本語', long, '🙂']]);
  });

  it('snapshots (file, byte offset of the next line) and a restore continues exactly there', async () => {
    await writeFile(join(dir, 'a.txt'), 'héllo\nwörld\nlast\n');
    await writeFile(join(dir, 'b.txt'), 'b1\nb2\n');
    const first = await SplitSourceHarness.start(source(dir), 1);
    expect(await first.poll(0, 2)).toEqual(['héllo', 'wörld']);
    const snapshot = first.snapshot();
    expect(snapshot.readers).toEqual([[{ splitId: join(dir, 'a.txt'), file: join(dir, 'a.txt'), offset: 14 }]]);
    expect(snapshot.enumerator.pending).toEqual([{ splitId: join(dir, 'b.txt'), file: join(dir, 'b.txt'), offset: 0 }]);
    await first.close();
    const restored = await SplitSourceHarness.start(source(dir), 1, snapshot);
    expect(await restored.pollAll()).toEqual([['last', 'b1', 'b2']]);
    await restored.close();
  });

  it.each([
    [2, 3],
    [3, 1],
  ])('restored from %i readers at parallelism %i, reads every line exactly once', async (from, to) => {
    const expected: string[] = [];
    for (let f = 0; f < 7; f++) {
      const lines = Array.from({ length: 20 }, (_, i) => `f${f}-${i}`);
      expected.push(...lines);
      await writeFile(join(dir, `f${f}.txt`), lines.join('\n') + '\n');
    }
    const first = await SplitSourceHarness.start(source(dir), from);
    const before = (await Promise.all(first.readers.map((_, i) => first.poll(i, 7 + i)))).flat();
    const snapshot = first.snapshot();
    await first.close();
    const restored = await SplitSourceHarness.start(source(dir), to, snapshot);
    const after = (await restored.pollAll()).flat();
    await restored.close();
    expect([...before, ...after].sort()).toEqual(expected.sort());
  });

  it('with monitorContinuously reads files that appear later, each once, and never ends', async () => {
    await writeFile(join(dir, 'a.txt'), 'a1\n');
    const continuous = source(dir, 50);
    expect(continuous.boundedness).toBe(Boundedness.CONTINUOUS_UNBOUNDED);
    const harness = await SplitSourceHarness.start(continuous, 1);
    expect(await harness.poll(0)).toEqual(['a1']);
    await writeFile(join(dir, 'b.txt'), 'b1\nb2\n');
    await harness.runAsyncWork();
    expect(await harness.poll(0)).toEqual(['b1', 'b2']);
    await harness.runAsyncWork();
    expect(await harness.poll(0)).toEqual([]);
    const restored = await SplitSourceHarness.start(continuous, 2, harness.snapshot());
    await writeFile(join(dir, 'c.txt'), 'c1\n');
    await restored.runAsyncWork();
    expect((await restored.pollAll()).flat()).toEqual(['c1']);
    await harness.close();
    await restored.close();
  });

  it('rejects a malformed restored split', async () => {
    await writeFile(join(dir, 'a.txt'), 'one\n');
    const harness = await SplitSourceHarness.start(source(dir), 1);
    try {
      harness.readers[0]!.addSplits([{ splitId: 'x', file: 'a.txt', offset: -1 }]);
      expect.unreachable();
    } catch (err) {
      expect(isWeirError(err, 'INVALID_POSITION')).toBe(true);
      expect((err as Error).message).toBe(
        'a FileSource split is { splitId, file, offset } with offset the start of the next line, got {"splitId":"x","file":"a.txt","offset":-1}',
      );
    }
  });

  it('fails the enumerator with FILE_NOT_FOUND for a missing path', async () => {
    await expect(SplitSourceHarness.start(source(join(dir, 'missing')), 1)).rejects.toSatisfy(
      (err) => isWeirError(err, 'FILE_NOT_FOUND') && err.message === `file source path ${join(dir, 'missing')} does not exist; give an existing file or directory`,
    );
  });

  it('reads a large file completely, one line per poll', async () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `line ${i} ${'ü'.repeat(i % 7)}`);
    const file = join(dir, 'big.txt');
    await writeFile(file, lines.join('\n') + '\n');
    expect(await readAll(file)).toEqual([lines]);
  });

  it('close() stops reading ahead', async () => {
    const file = join(dir, 'big.txt');
    await writeFile(file, 'x\n'.repeat(CHUNK_SIZE * 4));
    const harness = await SplitSourceHarness.start(source(file), 1);
    expect(await harness.poll(0, 3)).toEqual(['x', 'x', 'x']);
    await harness.close();
  });

  it('rejects a missing path argument and a bad interval', () => {
    expect(() => FileSource.forRecordStreamFormat(new TextLineInputFormat(), '')).toThrow(/needs the path/);
    expect(() => FileSource.forRecordStreamFormat(new TextLineInputFormat(), dir).monitorContinuously(0)).toThrow(/>= 1/);
  });
});
