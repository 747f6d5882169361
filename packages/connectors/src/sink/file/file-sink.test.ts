import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import type { ConnectorContext } from '@weir/api';
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

  it('writes a hidden in-progress part and commits it visible at end of input', () => {
    const out = join(dir, 'out');
    const writer = FileSink.forRowFormat<string>(out, new SimpleStringEncoder()).build().createWriter(context(1, 2));
    writer.write('héllo');
    writer.write('world');
    writer.flush(false);
    expect(contents(out)).toEqual({ '.part-1-0.inprogress': 'héllo\nworld\n' });
    writer.flush(true);
    writer.close();
    expect(contents(out)).toEqual({ 'part-1-0': 'héllo\nworld\n' });
  });

  it('rolls once a part reaches the max part size, without an empty last part', () => {
    const policy = DefaultRollingPolicy.builder().withMaxPartSize(10).build();
    const writer = FileSink.forRowFormat<string>(dir, new SimpleStringEncoder()).withRollingPolicy(policy).build().createWriter(context(0, 1));
    for (const record of ['aaaa', 'bbbb', 'cccc', 'dddd', 'eeee', 'ffffffffffff']) writer.write(record);
    expect(contents(dir)).toEqual({ 'part-0-0': 'aaaa\nbbbb\n', 'part-0-1': 'cccc\ndddd\n', 'part-0-2': 'eeee\nffffffffffff\n' });
    writer.flush(true);
    writer.close();
    expect(Object.keys(contents(dir))).toEqual(['part-0-0', 'part-0-1', 'part-0-2']);
  });

  it('defaults to 128 MiB parts', () => {
    expect(DefaultRollingPolicy.builder().build().maxPartSize).toBe(128 * 1024 * 1024);
  });

  it('buffers: a part grows in 64 KiB writes, records of any size included', () => {
    const writer = FileSink.forRowFormat<string>(dir, new SimpleStringEncoder()).build().createWriter(context(0, 1));
    const big = 'z'.repeat(100_000);
    writer.write('small');
    expect(readFileSync(join(dir, '.part-0-0.inprogress'), 'utf8')).toBe('');
    writer.write(big);
    expect(readFileSync(join(dir, '.part-0-0.inprogress'), 'utf8')).toBe(`small\n${big}\n`);
    for (let i = 0; i < 20_000; i++) writer.write(String(i));
    writer.flush(true);
    const expected = `small\n${big}\n${Array.from({ length: 20_000 }, (_, i) => `${i}\n`).join('')}`;
    expect(contents(dir)).toEqual({ 'part-0-0': expected });
  });

  it('leaves the in-progress part hidden on close without end of input', () => {
    const writer = FileSink.forRowFormat<number>(dir, new SimpleStringEncoder()).build().createWriter(context(0, 1));
    writer.write(42);
    writer.close();
    expect(contents(dir)).toEqual({ '.part-0-0.inprogress': '42\n' });
  });

  it('continues after the highest part index a previous attempt left', () => {
    writeFileSync(join(dir, 'part-0-0'), 'old\n');
    writeFileSync(join(dir, '.part-0-3.inprogress'), 'stale\n');
    writeFileSync(join(dir, 'part-1-7'), 'other subtask\n');
    const writer = FileSink.forRowFormat<string>(dir, new SimpleStringEncoder()).build().createWriter(context(0, 2));
    writer.write('new');
    writer.flush(true);
    expect(contents(dir)).toEqual({
      '.part-0-3.inprogress': 'stale\n',
      'part-0-0': 'old\n',
      'part-0-4': 'new\n',
      'part-1-7': 'other subtask\n',
    });
  });

  it('rejects a part size below one byte and a missing encoder', () => {
    for (const bad of [
      () => DefaultRollingPolicy.builder().withMaxPartSize(0),
      () => FileSink.forRowFormat(dir, undefined as never),
      () => FileSink.forRowFormat('', new SimpleStringEncoder()),
    ]) {
      try {
        bad();
        expect.unreachable();
      } catch (err) {
        expect(isWeirError(err, 'INVALID_ARGUMENT')).toBe(true);
      }
    }
  });
});
