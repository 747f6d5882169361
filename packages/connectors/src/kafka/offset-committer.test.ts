import { describe, expect, it } from 'vitest';
import { recordingLogger } from '@weir/common/testing';
import type { KafkaPartitionSplit } from './kafka-partition-split.ts';
import { OffsetCommitter } from './offset-committer.ts';

function split(offset: number): KafkaPartitionSplit {
  return { splitId: 't-0', topic: 't', partition: 0, offset };
}

/** Commits the test answers one by one. */
class FakeGroup {
  readonly commits: number[] = [];
  readonly #answers: { resolve: () => void; reject: (err: unknown) => void }[] = [];

  readonly commit = (splits: readonly KafkaPartitionSplit[]): Promise<void> => {
    this.commits.push(splits[0]!.offset);
    return new Promise<void>((resolve, reject) => this.#answers.push({ resolve, reject }));
  };

  async answer(index: number, err?: unknown): Promise<void> {
    if (err === undefined) this.#answers[index]!.resolve();
    else this.#answers[index]!.reject(err);
    for (let i = 0; i < 10; i++) await Promise.resolve();
  }
}

describe('OffsetCommitter', () => {
  it('commits in the background, and folds the checkpoints that complete meanwhile into one commit of the latest offsets', async () => {
    const group = new FakeGroup();
    const committer = new OffsetCommitter(group.commit, recordingLogger().logger);
    committer.request(1, [split(10)]);
    committer.request(2, [split(20)]);
    committer.request(3, [split(30)]);
    expect(group.commits).toEqual([10]);
    await group.answer(0);
    expect(group.commits).toEqual([10, 30]);
    await group.answer(1);
    committer.request(4, [split(40)]);
    expect(group.commits).toEqual([10, 30, 40]);
  });

  it('logs a failed commit and goes on with the next', async () => {
    const group = new FakeGroup();
    const log = recordingLogger();
    const committer = new OffsetCommitter(group.commit, log.logger);
    committer.request(1, [split(10)]);
    committer.request(2, [split(20)]);
    await group.answer(0, new Error('COORDINATOR_NOT_AVAILABLE'));
    expect(log.warnings).toEqual(['committing the offsets of a completed checkpoint to the consumer group failed']);
    expect(log.entries[0]!.fields).toMatchObject({ checkpointId: 1, cause: 'COORDINATOR_NOT_AVAILABLE' });
    expect(group.commits).toEqual([10, 20]);
  });

  it('close waits for the commit under way and drops the rest', async () => {
    const group = new FakeGroup();
    const committer = new OffsetCommitter(group.commit, recordingLogger().logger);
    committer.request(1, [split(10)]);
    committer.request(2, [split(20)]);
    let closed = false;
    const closing = committer.close().then(() => (closed = true));
    await Promise.resolve();
    expect(closed).toBe(false);
    await group.answer(0);
    await closing;
    committer.request(3, [split(30)]);
    expect(group.commits).toEqual([10]);
  });

  it('has nothing to commit for a reader without splits', () => {
    const group = new FakeGroup();
    new OffsetCommitter(group.commit, recordingLogger().logger).request(1, []);
    expect(group.commits).toEqual([]);
  });
});
