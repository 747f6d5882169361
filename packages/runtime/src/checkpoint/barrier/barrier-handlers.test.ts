import { type CheckpointFailureReason } from '@weir/common';
import { ManualClock } from '@weir/common/testing';
import { describe, expect, it } from 'vitest';
import { TaskEventHandler } from '../../input/channel-event-handler.ts';
import { InputChannel } from '../../input/input-channel.ts';
import { TaskIOMetrics } from '../../metrics/task-io-metrics.ts';
import { InputGate } from '../../input/input-gate.ts';
import { NetworkInput } from '../../input/network-input.ts';
import { barrierEvent, cancelCheckpointEvent, END_OF_DATA, END_OF_PARTITION, unalignedBarrierEvent } from '../../network/channel-events.ts';
import { RecordCodec } from '../../codec/record-codec.ts';
import type { ChannelItem } from '../../network/types.ts';
import { SingleCheckpointBarrierHandler } from './single-checkpoint-barrier-handler.ts';
import type { PendingInputState } from '../channel-state/pending-input-state.ts';
import type { CheckpointActions, CheckpointBarrierHandler } from './barrier-handler.ts';
import { BarrierTracker } from './barrier-tracker.ts';
import { RecordTimestamp } from '../../time/record-timestamp.ts';
import { StatusWatermarkValve } from '../../time/status-watermark-valve.ts';

type Item = string | ChannelItem;

/**
 * A gate of named channels fed by the test, read through a real NetworkInput; every record
 * advances the clock by 10 ms, and the log shows records, snapshots and aborts in order.
 */
type Mode = 'aligned' | 'tracker' | { unalignedAfterMs: number };

const codec = new RecordCodec(undefined, "'Task'");
const encodeRecords = (records: unknown[]): Uint8Array => codec.encode(records);
const decodeRecords = (payload: Uint8Array): unknown[] => codec.decode(payload).records;

function fixture(names: string[], mode: Mode) {
  const clock = new ManualClock(0);
  const gate = new InputGate((_, error) => {
    throw error;
  });
  const credits = new Map<string, number>();
  const channels = new Map<string, InputChannel>();
  for (const name of names) {
    const channel = new InputChannel(0, name, gate, { vertexId: name, subtask: 0, input: 0 }, codec);
    channel.connect({ addCredit: (n) => credits.set(name, (credits.get(name) ?? 0) + n), close: () => {} });
    gate.add(channel);
    channels.set(name, channel);
  }
  const log: string[] = [];
  const blocked = (): string => names.filter((n) => channels.get(n)!.blocked).join(',');
  const inputStates = new Map<number, PendingInputState>();
  const actions: CheckpointActions = {
    triggerCheckpoint: (id, _ts, alignmentMs, options) =>
      log.push(`snapshot ${id}${options.type === 'savepoint' ? ' (savepoint)' : ''} (alignment ${alignmentMs} ms, blocked [${blocked()}])`),
    triggerUnalignedCheckpoint: (id, _ts, alignmentMs, _options, inputs) => {
      inputStates.set(id, inputs);
      log.push(`unaligned snapshot ${id} (alignment ${alignmentMs} ms, blocked [${blocked()}])`);
    },
    abortCheckpoint: (id, reason: CheckpointFailureReason) => log.push(`abort ${id} ${reason}`),
  };
  const context = {
    gate,
    clock,
    actions,
    ...(typeof mode === 'object' ? { unaligned: { alignedCheckpointTimeoutMs: mode.unalignedAfterMs } } : {}),
    schedule: (delayMs: number, action: () => void) => {
      const handle = clock.setTimeout(action, delayMs);
      return () => clock.clearTimeout(handle);
    },
  };
  const handler: CheckpointBarrierHandler = mode === 'tracker' ? new BarrierTracker(context) : new SingleCheckpointBarrierHandler(context);
  const target = {
    collect(record: unknown) {
      log.push(String(record));
      clock.advance(10);
    },
  };
  const valve = new StatusWatermarkValve(8, { emitWatermark: () => {}, emitWatermarkStatus: () => {} });
  const input = new NetworkInput(gate, [target], new TaskEventHandler(gate, handler, valve), () => gate.isFinished, new RecordTimestamp(), new TaskIOMetrics(), 'Task (1/1)');
  return {
    log,
    gate,
    clock,
    input,
    credits,
    handler,
    channel: (name: string) => channels.get(name)!,
    send(name: string, ...items: Item[]) {
      for (const item of items) {
        channels.get(name)!.onItem(typeof item === 'string' ? { kind: 'buffer', payload: encodeRecords([item]), recordCount: 1 } : item);
      }
    },
    /** The input channel state of unaligned checkpoint `id` as sorted "<channel>: <records>", or 'aborted'; pending: 'collecting'. */
    async inputState(id: number): Promise<string[] | 'aborted' | 'collecting'> {
      const pending = inputStates.get(id);
      if (pending === undefined) throw new Error(`checkpoint ${id} was not taken unaligned`);
      const settled = await Promise.race([pending.result, new Promise<'collecting'>((r) => setImmediate(() => r('collecting')))]);
      if (settled === 'collecting') return settled;
      if (settled === undefined) return 'aborted';
      return settled.map((c) => `${c.vertexId}: ${c.buffers.flatMap((b) => decodeRecords(b.payload)).join(' ')}`).sort();
    },
    /** Processes until the input has nothing more. */
    drain() {
      for (let i = 0; i < 1000; i++) if (input.emitNext() !== 'more-available') return;
      throw new Error('input never ran dry');
    },
  };
}

const barrier = (id: number): ChannelItem => barrierEvent(id, id * 1000);
const priority = (id: number): ChannelItem => unalignedBarrierEvent(id, id * 1000);
const savepoint = (id: number): ChannelItem => barrierEvent(id, id * 1000, { type: 'savepoint' });
const cancel = (id: number): ChannelItem => cancelCheckpointEvent(id);

describe('aligned barrier handler (EXACTLY_ONCE)', () => {
  it('blocks a channel from its barrier until every channel brought it, keeping the blocked buffers credit', () => {
    const f = fixture(['A', 'B'], 'aligned');
    f.send('A', 'a1', barrier(1), 'a2');
    f.send('B', 'b1', 'b2', barrier(1), 'b3');
    f.drain();
    expect(f.log).toEqual(['a1', 'b1', 'b2', 'snapshot 1 (alignment 10 ms, blocked [A])', 'a2', 'b3']);
    expect(f.gate.channels.map((c) => c.blocked)).toEqual([false, false]);
    expect([f.credits.get('A'), f.credits.get('B')]).toEqual([2, 3]);
  });

  it('returns no credit for a blocked channel while it waits', () => {
    const f = fixture(['A', 'B'], 'aligned');
    f.send('A', barrier(1), 'a1', 'a2');
    f.send('B', 'b1');
    f.drain();
    expect(f.log).toEqual(['b1']);
    expect(f.channel('A').blocked).toBe(true);
    expect(f.credits.get('A')).toBeUndefined();
    expect(f.channel('A').unacknowledgedBuffers).toBe(2);
    f.send('B', barrier(1));
    f.drain();
    expect(f.log).toEqual(['b1', 'snapshot 1 (alignment 10 ms, blocked [A])', 'a1', 'a2']);
    expect(f.credits.get('A')).toBe(2);
  });

  it('takes two checkpoints one after the other', () => {
    const f = fixture(['A', 'B'], 'aligned');
    f.send('A', barrier(1), 'a1', barrier(2), 'a2');
    f.send('B', barrier(1), 'b1', barrier(2), 'b2');
    f.drain();
    expect(f.log).toEqual([
      'snapshot 1 (alignment 0 ms, blocked [A])',
      'a1',
      'b1',
      'snapshot 2 (alignment 0 ms, blocked [A])',
      'a2',
      'b2',
    ]);
  });

  it('aborts the older checkpoint as subsumed when a newer barrier arrives while aligning', () => {
    const f = fixture(['A', 'B'], 'aligned');
    f.send('A', barrier(1), 'a1');
    f.send('B', 'b1', barrier(2), 'b2');
    f.drain();
    expect(f.log).toEqual(['b1', 'abort 1 CHECKPOINT_SUBSUMED', 'a1']);
    expect([f.channel('A').blocked, f.channel('B').blocked]).toEqual([false, true]);
    f.send('A', barrier(1), barrier(2));
    f.drain();
    expect(f.log).toEqual(['b1', 'abort 1 CHECKPOINT_SUBSUMED', 'a1', 'snapshot 2 (alignment 10 ms, blocked [B])', 'b2']);
  });

  it('aborts on a cancel marker, before or during alignment, and ignores that checkpoint afterwards', () => {
    const f = fixture(['A', 'B'], 'aligned');
    f.send('A', cancel(1), 'a1', barrier(1));
    f.send('B', barrier(1), 'b1');
    f.drain();
    expect(f.log).toEqual(['abort 1 CHECKPOINT_DECLINED', 'a1', 'b1']);
    f.send('A', barrier(2), 'a2');
    f.send('B', cancel(2), 'b2');
    f.drain();
    expect(f.log).toEqual(['abort 1 CHECKPOINT_DECLINED', 'a1', 'b1', 'abort 2 CHECKPOINT_DECLINED', 'a2', 'b2']);
    expect(f.gate.channels.map((c) => c.blocked)).toEqual([false, false]);
  });

  it('counts an end of partition as every barrier delivered, but not an end of data', () => {
    const f = fixture(['A', 'B', 'C'], 'aligned');
    f.send('A', barrier(1), 'a1');
    f.send('B', END_OF_DATA);
    f.send('C', 'c1', END_OF_DATA, END_OF_PARTITION);
    f.drain();
    expect(f.log).toEqual(['c1']);
    f.send('B', barrier(1));
    f.drain();
    expect(f.log).toEqual(['c1', 'snapshot 1 (alignment 10 ms, blocked [A])', 'a1']);
    f.send('B', END_OF_PARTITION);
    f.send('A', 'a2', barrier(2), 'a3');
    f.drain();
    expect(f.log.slice(3)).toEqual(['a2', 'snapshot 2 (alignment 0 ms, blocked [])', 'a3']);
  });

  it('completes the alignment when the last missing channel ends its partition', () => {
    const f = fixture(['A', 'B'], 'aligned');
    f.send('A', barrier(1), 'a1');
    f.send('B', 'b1', END_OF_DATA, END_OF_PARTITION);
    f.drain();
    expect(f.log).toEqual(['b1', 'snapshot 1 (alignment 10 ms, blocked [A])', 'a1']);
  });

  it('needs no blocking with one input channel', () => {
    const f = fixture(['A'], 'aligned');
    f.send('A', 'a1', barrier(1), 'a2');
    f.drain();
    expect(f.log).toEqual(['a1', 'snapshot 1 (alignment 0 ms, blocked [])', 'a2']);
  });
});

describe('unaligned checkpoints (EXACTLY_ONCE)', () => {
  it('snapshots at the first unaligned barrier ahead of its queued buffers, and records each channel up to its barrier', async () => {
    const f = fixture(['A', 'B'], { unalignedAfterMs: 0 });
    f.send('A', 'a1', 'a2');
    f.send('B', 'b1');
    f.send('A', priority(1), 'a3');
    f.drain();
    expect(f.log.slice(0, 1)).toEqual(['unaligned snapshot 1 (alignment 0 ms, blocked [])']);
    expect(f.log.slice(1).sort()).toEqual(['a1', 'a2', 'a3', 'b1']);
    expect(await f.inputState(1)).toBe('collecting');
    f.send('B', 'b2', 'b3', priority(1), 'b4');
    f.drain();
    expect(f.log.slice(5)).toEqual(['b2', 'b3', 'b4']);
    expect(await f.inputState(1)).toEqual(['A: a1 a2', 'B: b1 b2 b3']);
    expect(f.handler instanceof SingleCheckpointBarrierHandler && f.handler.stateName).toBe('WaitingForFirstBarrier');
  });

  it('records nothing for a channel whose barrier arrives in order, and ends recording at an end of partition', async () => {
    const f = fixture(['A', 'B', 'C'], { unalignedAfterMs: 0 });
    f.send('A', barrier(1), 'a1');
    f.send('B', 'b1');
    f.send('C', 'c1');
    f.drain();
    expect(f.log[0]).toBe('unaligned snapshot 1 (alignment 0 ms, blocked [])');
    f.send('B', 'b2', END_OF_DATA, END_OF_PARTITION);
    f.send('C', 'c2', barrier(1), 'c3');
    f.drain();
    expect(await f.inputState(1)).toEqual(['B: b1 b2', 'C: c1 c2']);
  });

  it('takes an unaligned barrier between two records of a buffer, giving the rest of the buffer back as channel state', async () => {
    const f = fixture(['A', 'B'], { unalignedAfterMs: 0 });
    f.send('A', { kind: 'buffer', payload: encodeRecords(['a1', 'a2', 'a3']), recordCount: 3 }, 'a4');
    expect([f.input.emitNext(), f.input.emitNext()]).toEqual(['more-available', 'more-available']);
    expect(f.log).toEqual(['a1']);
    f.send('B', 'b1', priority(1));
    f.input.processPriorityEvents();
    expect(f.log).toEqual(['a1', 'unaligned snapshot 1 (alignment 0 ms, blocked [])']);
    f.send('A', priority(1));
    f.drain();
    expect(await f.inputState(1)).toEqual(['A: a2 a3 a4', 'B: b1']);
    expect(f.log.slice(2).sort()).toEqual(['a2', 'a3', 'a4', 'b1']);
    expect(f.credits.get('A')).toBe(2);
  });

  it('keeps savepoints aligned', () => {
    const f = fixture(['A', 'B'], { unalignedAfterMs: 0 });
    f.send('A', savepoint(1), 'a1');
    f.send('B', 'b1', savepoint(1), 'b2');
    f.drain();
    expect(f.log).toEqual(['b1', 'snapshot 1 (savepoint) (alignment 10 ms, blocked [A])', 'a1', 'b2']);
  });

  it('aborts a collecting checkpoint subsumed by the next barrier and starts that one', async () => {
    const f = fixture(['A', 'B'], { unalignedAfterMs: 0 });
    f.send('A', priority(1), 'a1', priority(2));
    f.send('B', 'b1');
    f.drain();
    expect(f.log.filter((l) => !/^[ab]\d$/.test(l))).toEqual([
      'unaligned snapshot 1 (alignment 0 ms, blocked [])',
      'abort 1 CHECKPOINT_SUBSUMED',
      'unaligned snapshot 2 (alignment 0 ms, blocked [])',
    ]);
    expect(await f.inputState(1)).toBe('aborted');
    f.send('B', priority(2));
    f.drain();
    expect(await f.inputState(2)).toEqual(['A: a1', 'B: b1']);
  });

  it('aligns first and switches to unaligned when the aligned-checkpoint timeout expires', async () => {
    const f = fixture(['A', 'B'], { unalignedAfterMs: 100 });
    f.send('A', barrier(1), 'a1', 'a2');
    f.send('B', 'b1');
    f.drain();
    expect(f.log).toEqual(['b1']);
    expect(f.channel('A').blocked).toBe(true);
    f.send('B', 'b2');
    f.drain();
    f.clock.advance(80);
    expect(f.log).toEqual(['b1', 'b2', 'unaligned snapshot 1 (alignment 100 ms, blocked [])']);
    f.drain();
    expect(f.channel('A').blocked).toBe(false);
    expect(f.log.slice(3).sort()).toEqual(['a1', 'a2']);
    f.send('B', 'b3', barrier(1), 'b4');
    f.drain();
    expect(await f.inputState(1)).toEqual(['B: b3']);
  });

  it('completes aligned when the barriers align within the timeout, and the timer then does nothing', () => {
    const f = fixture(['A', 'B'], { unalignedAfterMs: 100 });
    f.send('A', barrier(1), 'a1');
    f.send('B', 'b1', barrier(1));
    f.drain();
    f.clock.advance(1000);
    expect(f.log).toEqual(['b1', 'snapshot 1 (alignment 10 ms, blocked [A])', 'a1']);
  });

  it('switches at once when an unaligned barrier of the aligning checkpoint arrives', async () => {
    const f = fixture(['A', 'B'], { unalignedAfterMs: 100 });
    f.send('A', barrier(1), 'a1');
    f.send('B', 'b1', 'b2');
    f.drain();
    f.send('B', 'b3', priority(1));
    f.drain();
    expect(f.log.slice(0, 4)).toEqual(['b1', 'b2', 'unaligned snapshot 1 (alignment 20 ms, blocked [])', 'b3']);
    expect(await f.inputState(1)).toEqual(['B: b3']);
  });
});

describe('barrier tracker (AT_LEAST_ONCE)', () => {
  it('never blocks: records after a barrier keep flowing until the barrier came on every channel', () => {
    const f = fixture(['A', 'B'], 'tracker');
    f.send('A', barrier(1), 'a1', 'a2');
    f.send('B', 'b1', 'b2', barrier(1), 'b3');
    f.drain();
    expect(f.log).toEqual(['b1', 'a1', 'b2', 'a2', 'snapshot 1 (alignment 40 ms, blocked [])', 'b3']);
  });

  it('tracks several checkpoints at once and subsumes an older one that a newer one overtook', () => {
    const f = fixture(['A', 'B'], 'tracker');
    f.send('A', barrier(1), barrier(2), barrier(3));
    f.send('B', barrier(1), barrier(3));
    f.drain();
    expect(f.log).toEqual(['snapshot 1 (alignment 0 ms, blocked [])', 'abort 2 CHECKPOINT_SUBSUMED', 'snapshot 3 (alignment 0 ms, blocked [])']);
    expect((f.handler as BarrierTracker).pendingCheckpoints).toEqual([]);
  });

  it('aborts on a cancel marker and counts ended partitions as delivered', () => {
    const f = fixture(['A', 'B'], 'tracker');
    f.send('A', barrier(1), 'a1', barrier(2));
    f.send('B', cancel(1), 'b1', END_OF_DATA, END_OF_PARTITION);
    f.drain();
    expect(f.log).toEqual(['abort 1 CHECKPOINT_DECLINED', 'a1', 'b1', 'snapshot 2 (alignment 0 ms, blocked [])']);
  });
});
