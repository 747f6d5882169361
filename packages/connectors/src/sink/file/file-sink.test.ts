import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectorContext } from '@weir/api';
import { errorOf, rejectionOf } from '@weir/common/testing';
import { SimpleStringEncoder } from './encoder.ts';
import { FileSink } from './file-sink.ts';
import { DefaultRollingPolicy } from './rolling-policy.ts';

process.env.WEIR_LOG_LEVEL = 'silent';

const context = (subtaskIndex: number, parallelism: number): ConnectorContext => ({ jobId: 'j', subtaskIndex, parallelism, attemptNumber: 0 });

function contents(dir: string): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).sort().map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}


describe('FileSink', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'weir-file-sink-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function sink(maxPartSize?: number): FileSink<string> {
    const builder = FileSink.forRowFormat<string>(dir, new SimpleStringEncoder());
    if (maxPartSize !== undefined) builder.withRollingPolicy(DefaultRollingPolicy.builder().withMaxPartSize(maxPartSize).build());
    return builder.build();
  }

  it('keeps parts hidden until the committer commits what prepareCommit handed over', async () => {
    const out = join(dir, 'out');
    const fileSink = FileSink.forRowFormat<string>(out, new SimpleStringEncoder()).build();
    const writer = await fileSink.createWriter(context(1, 2));
    await writer.write('héllo');
    await writer.write('world');
    await writer.flush(false);
    expect(contents(out)).toEqual({ '.part-1-0.inprogress': 'héllo\nworld\n' });
    const committables = await writer.prepareCommit(1);
    expect(committables).toEqual([{ dir: out, pending: '.part-1-0.inprogress', final: 'part-1-0' }]);
    expect(contents(out)).toEqual({ '.part-1-0.inprogress': 'héllo\nworld\n' });
    await writer.write('next');
    await fileSink.createCommitter(context(1, 2)).commit(committables);
    await writer.flush(false);
    expect(contents(out)).toEqual({ 'part-1-0': 'héllo\nworld\n', '.part-1-1.inprogress': 'next\n' });
  });

  it('writes each bucket into its own subdirectory, one part per bucket, and a restore deletes the hidden parts of every bucket', async () => {
    const bucketed = () =>
      FileSink.forRowFormat<string>(dir, new SimpleStringEncoder())
        .withBucketAssigner({ getBucketId: (record: string) => `k=${record[0]}` })
        .build();
    const writer = await bucketed().createWriter(context(0, 1));
    for (const record of ['a1', 'b1', 'a2']) await writer.write(record);
    const committables = await writer.prepareCommit(1);
    expect(committables).toEqual([
      { dir: join(dir, 'k=a'), pending: '.part-0-0.inprogress', final: 'part-0-0' },
      { dir: join(dir, 'k=b'), pending: '.part-0-1.inprogress', final: 'part-0-1' },
    ]);
    await bucketed().createCommitter(context(0, 1)).commit(committables);
    await writer.write('b2');
    await writer.flush(false);
    expect(contents(join(dir, 'k=a'))).toEqual({ 'part-0-0': 'a1\na2\n' });
    expect(contents(join(dir, 'k=b'))).toEqual({ 'part-0-1': 'b1\n', '.part-0-2.inprogress': 'b2\n' });
    const restored = await bucketed().createWriter(context(0, 1), [writer.snapshotState()]);
    expect(contents(join(dir, 'k=b'))).toEqual({ 'part-0-1': 'b1\n' });
    await restored.write('a3');
    expect(await restored.prepareCommit(2)).toEqual([{ dir: join(dir, 'k=a'), pending: '.part-0-3.inprogress', final: 'part-0-3' }]);
    const escaping = await FileSink.forRowFormat<string>(dir, new SimpleStringEncoder()).withBucketAssigner({ getBucketId: () => '../x' }).build().createWriter(context(0, 1));
    expect(() => escaping.write('x')).toThrow(/a FileSink bucket is a relative path below the sink's directory, got "..\/x"/);
  });

  it('hands over size rolls and the current part in order, each part once', async () => {
    const writer = await sink(10).createWriter(context(0, 1));
    expect(await writer.prepareCommit(1)).toEqual([]);
    for (const record of ['aaaa', 'bbbb', 'cccc', 'dddd', 'eeee']) await writer.write(record);
    expect(contents(dir)).toEqual({ '.part-0-0.inprogress': 'aaaa\nbbbb\n', '.part-0-1.inprogress': 'cccc\ndddd\n', '.part-0-2.inprogress': '' });
    expect(await writer.prepareCommit(2)).toEqual([
      { dir, pending: '.part-0-0.inprogress', final: 'part-0-0' },
      { dir, pending: '.part-0-1.inprogress', final: 'part-0-1' },
      { dir, pending: '.part-0-2.inprogress', final: 'part-0-2' },
    ]);
    expect(await writer.prepareCommit(3)).toEqual([]);
    await writer.write('ffff');
    expect(await writer.prepareCommit(4)).toEqual([{ dir, pending: '.part-0-3.inprogress', final: 'part-0-3' }]);
    expect(contents(dir)).toEqual({
      '.part-0-0.inprogress': 'aaaa\nbbbb\n',
      '.part-0-1.inprogress': 'cccc\ndddd\n',
      '.part-0-2.inprogress': 'eeee\n',
      '.part-0-3.inprogress': 'ffff\n',
    });
  });

  it('leaves only committed parts visible after a sequence of checkpoints, one aborted', async () => {
    const fileSink = sink();
    const writer = await fileSink.createWriter(context(0, 1));
    const committer = fileSink.createCommitter(context(0, 1));
    await writer.write('a');
    const first = await writer.prepareCommit(1);
    await writer.write('b');
    const aborted = await writer.prepareCommit(2);
    await writer.write('c');
    const third = await writer.prepareCommit(3);
    await writer.write('d');
    await committer.commit(first);
    await committer.commit(third);
    await writer.flush(false);
    expect(aborted).toEqual([{ dir, pending: '.part-0-1.inprogress', final: 'part-0-1' }]);
    expect(contents(dir)).toEqual({ 'part-0-0': 'a\n', '.part-0-1.inprogress': 'b\n', 'part-0-2': 'c\n', '.part-0-3.inprogress': 'd\n' });
  });

  it('rolls at end of input, into the next prepareCommit (without checkpointing, the last one)', async () => {
    const fileSink = sink();
    const writer = await fileSink.createWriter(context(0, 1));
    await writer.write('last');
    await writer.flush(true);
    await writer.close();
    expect(contents(dir)).toEqual({ '.part-0-0.inprogress': 'last\n' });
    await fileSink.createCommitter(context(0, 1)).commit(await writer.prepareCommit(1));
    expect(contents(dir)).toEqual({ 'part-0-0': 'last\n' });
  });

  it('commits idempotently, and names the part when both of its files are gone', async () => {
    const fileSink = sink();
    const writer = await fileSink.createWriter(context(0, 1));
    await writer.write('x');
    const committables = await writer.prepareCommit(1);
    const committer = fileSink.createCommitter(context(0, 1));
    await committer.commit(committables);
    await committer.commit(committables);
    expect(contents(dir)).toEqual({ 'part-0-0': 'x\n' });
    rmSync(join(dir, 'part-0-0'));
    expect(await rejectionOf(committer.commit(committables))).toEqual({
      code: 'LOST_PART_FILE',
      message:
        `cannot commit part file ${join(dir, 'part-0-0')}: neither it nor its pending file ${join(dir, '.part-0-0.inprogress')} exists; ` +
        'the pending file was deleted, or the sink directory is not shared by every TaskManager (it must be)',
    });
  });

  it('commits a restored part in the directory it was written to, whatever the committing sink writes to', async () => {
    const old = join(dir, 'v1');
    const writer = await FileSink.forRowFormat<string>(old, new SimpleStringEncoder()).build().createWriter(context(0, 1));
    await writer.write('from v1');
    const committables = await writer.prepareCommit(7);
    const upgraded = FileSink.forRowFormat<string>(join(dir, 'v2'), new SimpleStringEncoder()).build();
    await upgraded.createCommitter(context(0, 1)).commit(committables);
    expect(contents(old)).toEqual({ 'part-0-0': 'from v1\n' });
  });

  it.each([
    [{ pending: '../../etc/passwd', final: 'part-0-0' }],
    [{ pending: '.part-0-1.inprogress', final: 'part-0-2' }],
    [{ pending: '.part-0-1.inprogress' }],
    [{ dir: 'relative/out', pending: '.part-0-1.inprogress', final: 'part-0-1' }],
    ['part-0-1'],
  ])('rejects the committable %j', async (committable) => {
    expect(await rejectionOf(sink().createCommitter(context(0, 1)).commit([committable as never]))).toEqual({
      code: 'INVALID_RESTORED_STATE',
      message: `a FileSink committable is { dir: '<absolute directory>', pending: '.part-<subtask>-<n>.inprogress', final: 'part-<subtask>-<n>' }, got ${JSON.stringify(committable)}`,
    });
  });

  it('snapshots the next part number', async () => {
    const writer = await sink().createWriter(context(0, 1));
    expect(writer.snapshotState()).toEqual({ nextPart: 0, subtask: 0, parallelism: 1 });
    await writer.write('a');
    await writer.prepareCommit(1);
    expect(writer.snapshotState()).toEqual({ nextPart: 1, subtask: 0, parallelism: 1 });
  });

  it('on restore deletes the failed attempt\'s hidden parts, keeps committed ones and continues numbering', async () => {
    const fileSink = sink();
    const committer = fileSink.createCommitter(context(0, 2));
    const failed = await fileSink.createWriter(context(0, 2));
    await failed.write('committed');
    const completed = await failed.prepareCommit(1);
    const state = failed.snapshotState();
    await failed.write('promised by a checkpoint that never completed');
    await failed.prepareCommit(2);
    await failed.write('in progress');
    await failed.close();
    writeFileSync(join(dir, '.part-1-0.inprogress'), 'another subtask\n');

    // The runtime commits what the restored checkpoint promised, then creates the writer.
    await committer.commit(completed);
    const restored = await fileSink.createWriter(context(0, 2), [state]);
    expect(contents(dir)).toEqual({ 'part-0-0': 'committed\n', '.part-1-0.inprogress': 'another subtask\n' });
    await restored.write('after restore');
    await committer.commit(await restored.prepareCommit(3));
    expect(contents(dir)).toEqual({ 'part-0-0': 'committed\n', 'part-0-3': 'after restore\n', '.part-1-0.inprogress': 'another subtask\n' });

    // A second restore from the same checkpoint commits again, harmlessly.
    await committer.commit(completed);
    expect((await fileSink.createWriter(context(0, 2), [state])).snapshotState()).toEqual({ nextPart: 4, subtask: 0, parallelism: 2 });
  });

  it('on restore at another parallelism leaves hidden parts, which another subtask may still commit', async () => {
    const fileSink = sink();
    const old = await fileSink.createWriter(context(1, 2));
    await old.write('promised to whoever restores it');
    const promised = await old.prepareCommit(1);
    const state = old.snapshotState();
    await old.close();

    // 2 -> 3: subtask 1 of 3 restores the writer state of old subtask 1; the committable went to subtask 0, which commits later.
    await fileSink.createWriter(context(1, 3), [state]);
    await fileSink.createWriter(context(2, 3), []);
    await fileSink.createCommitter(context(0, 3)).commit(promised);
    expect(contents(dir)).toEqual({ 'part-1-0': 'promised to whoever restores it\n' });
  });

  it('on restore continues after the restored part number when it is the highest', async () => {
    const writer = await sink().createWriter(context(0, 1), [{ nextPart: 9 }]);
    await writer.write('x');
    expect(await writer.prepareCommit(1)).toEqual([{ dir, pending: '.part-0-9.inprogress', final: 'part-0-9' }]);
  });

  it.each([[{}], [{ nextPart: -1 }], [{ nextPart: '3' }], [null]])('rejects the writer state %j', async (state) => {
    expect(await rejectionOf(sink().createWriter(context(0, 1), [state]))).toEqual({
      code: 'INVALID_RESTORED_STATE',
      message: `a FileSink writer resumes from { nextPart: <whole number >= 0> }, got ${JSON.stringify(state)}`,
    });
  });

  it('a fresh writer continues after the highest part index already present and deletes nothing', async () => {
    writeFileSync(join(dir, 'part-0-0'), 'old\n');
    writeFileSync(join(dir, '.part-0-3.inprogress'), 'stale\n');
    writeFileSync(join(dir, 'part-1-7'), 'other subtask\n');
    const fileSink = sink();
    const writer = await fileSink.createWriter(context(0, 2));
    await writer.write('new');
    await writer.flush(true);
    await fileSink.createCommitter(context(0, 2)).commit(await writer.prepareCommit(1));
    expect(contents(dir)).toEqual({
      '.part-0-3.inprogress': 'stale\n',
      'part-0-0': 'old\n',
      'part-0-4': 'new\n',
      'part-1-7': 'other subtask\n',
    });
  });

  it('defaults to 128 MiB parts', () => {
    expect(DefaultRollingPolicy.builder().build().maxPartSize).toBe(128 * 1024 * 1024);
  });

  it('buffers: a part grows in 64 KiB writes, records of any size included', async () => {
    const writer = await sink().createWriter(context(0, 1));
    const big = 'z'.repeat(100_000);
    await writer.write('small');
    expect(readFileSync(join(dir, '.part-0-0.inprogress'), 'utf8')).toBe('');
    await writer.write(big);
    expect(readFileSync(join(dir, '.part-0-0.inprogress'), 'utf8')).toBe(`small\n${big}\n`);
    for (let i = 0; i < 20_000; i++) await writer.write(String(i));
    await writer.flush(true);
    const expected = `small\n${big}\n${Array.from({ length: 20_000 }, (_, i) => `${i}\n`).join('')}`;
    expect(contents(dir)).toEqual({ '.part-0-0.inprogress': expected });
  });

  it('leaves the in-progress part hidden on close without end of input', async () => {
    const writer = await FileSink.forRowFormat<number>(dir, new SimpleStringEncoder()).build().createWriter(context(0, 1));
    await writer.write(42);
    await writer.close();
    expect(contents(dir)).toEqual({ '.part-0-0.inprogress': '42\n' });
  });

  it('rejects a part size below one byte and a missing encoder', () => {
    for (const bad of [
      () => DefaultRollingPolicy.builder().withMaxPartSize(0),
      () => FileSink.forRowFormat(dir, undefined as never),
      () => FileSink.forRowFormat('', new SimpleStringEncoder()),
    ]) {
      expect(errorOf(bad).code).toBe('INVALID_ARGUMENT');
    }
  });
});
