import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CollectSink, COLLECT_DIR_ENV } from './collect-sink.ts';
import { readCollected } from './read-collected.ts';

const context = (subtaskIndex: number, attemptNumber = 0) => ({ jobId: 'job', subtaskIndex, parallelism: 2, attemptNumber });

describe('CollectSink', () => {
  let root: string;
  const saved = process.env[COLLECT_DIR_ENV];

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'weir-collect-'));
    process.env[COLLECT_DIR_ENV] = root;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[COLLECT_DIR_ENV];
    else process.env[COLLECT_DIR_ENV] = saved;
  });

  it('shows a checkpoint\'s records only once it is committed, then the end of input', () => {
    const sink = new CollectSink<number>('out');
    const writer = sink.createWriter(context(0));
    writer.write(1);
    writer.write(2);
    const committables = writer.prepareCommit!(1) as unknown[];
    writer.write(3);
    expect(readCollected(root, 'out')).toEqual([]);
    sink.createCommitter().commit(committables);
    sink.createCommitter().commit(committables); // a restore commits again: idempotent
    expect(readCollected(root, 'out')).toEqual([1, 2]);
    writer.flush(true);
    expect(readCollected(root, 'out')).toEqual([1, 2, 3]);
  });

  it("drops what a failed attempt buffered after its last checkpoint, and takes only the newest attempt's end", () => {
    const sink = new CollectSink<string>('out');
    const failed = sink.createWriter(context(1, 0));
    failed.write('a');
    failed.flush(true);
    failed.write('lost');
    const again = sink.createWriter(context(1, 1));
    again.write('a');
    again.write('b');
    again.flush(true);
    expect(readCollected(root, 'out')).toEqual(['a', 'b']);
    expect(readdirSync(join(root, 'out')).sort()).toEqual(['1-end-0000.json', '1-end-0001.json']);
  });

  it('refuses a name that is not a directory name, and running outside a MiniCluster', () => {
    expect(() => new CollectSink('../x')).toThrow(expect.objectContaining({ code: 'INVALID_COLLECT_NAME' }));
    delete process.env[COLLECT_DIR_ENV];
    expect(() => new CollectSink('out').createWriter(context(0))).toThrow(expect.objectContaining({ code: 'NOT_IN_MINI_CLUSTER' }));
  });
});
