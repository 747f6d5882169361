import { describe, expect, it } from 'vitest';
import { JobStatus } from '@weir/common';
import { CollectResultBuffer, type CollectSender } from './collect-result-buffer.ts';
import { fetchResults } from './collect-results.ts';
import { decodeSourceEvent, parseReaderEvent } from '@weir/common';

const sink = (attempt = 0): CollectSender => ({ taskManagerId: 'tm-1', attempt, vertexId: 'v', subtaskIndex: 0, operatorId: 'op' });

function setup(capacity = 8) {
  const grants: Array<{ attempt: number; credits: number }> = [];
  const buffer = new CollectResultBuffer((sender, credits) => void grants.push({ attempt: sender.attempt, credits }), capacity);
  return { buffer, grants };
}

describe('CollectResultBuffer', () => {
  it('grants the whole buffer to a registering sink, nothing more until rows are taken', () => {
    const { buffer, grants } = setup();
    buffer.receive(sink(), []);
    expect(grants).toEqual([{ attempt: 0, credits: 8 }]);
    buffer.receive(sink(), [1, 2, 3, 4, 5, 6, 7, 8]);
    expect(grants).toHaveLength(1);
    expect(buffer.size).toBe(8);
  });

  it('grants the room taking leaves, in chunks of at least a quarter of the buffer', () => {
    const { buffer, grants } = setup();
    buffer.receive(sink(), []);
    buffer.receive(sink(), [1, 2, 3, 4, 5, 6, 7, 8]);
    expect(buffer.take(1)).toEqual([1]);
    expect(grants).toHaveLength(1);
    expect(buffer.take(2)).toEqual([2, 3]);
    expect(grants.at(-1)).toEqual({ attempt: 0, credits: 3 });
    // Rows buffered plus rows granted never exceed the capacity: a slow reader holds the sink back.
    expect(buffer.size + 3).toBe(8);
  });

  it('voids the credit of an older attempt and drops its late rows', () => {
    const { buffer, grants } = setup();
    buffer.receive(sink(0), []);
    buffer.receive(sink(0), [1, 2]);
    buffer.receive(sink(1), []);
    expect(grants.at(-1)).toEqual({ attempt: 1, credits: 6 });
    buffer.receive(sink(0), [3]);
    expect(buffer.take(10)).toEqual([1, 2]);
  });

  it('answers a fetch with the rows, waits for the first rows when it has none, and ends once the job ended and all were taken', async () => {
    const { buffer } = setup();
    const job = { results: buffer, status: JobStatus.RUNNING as JobStatus };
    buffer.receive(sink(), []);
    const waiting = fetchResults(job, 0, 10_000);
    buffer.receive(sink(), ['a', 'b']);
    const first = await waiting;
    expect(decodeSourceEvent(first.rows as Uint8Array, parseReaderEvent)).toEqual({ kind: 'collect-rows', rows: ['a', 'b'] });
    expect(first.endOfResults).toBe(false);
    buffer.receive(sink(), ['c']);
    job.status = JobStatus.CANCELED;
    const last = await fetchResults(job, 0, 10_000);
    expect(decodeSourceEvent(last.rows as Uint8Array, parseReaderEvent)).toEqual({ kind: 'collect-rows', rows: ['c'] });
    expect(last.endOfResults).toBe(true);
  });
});
