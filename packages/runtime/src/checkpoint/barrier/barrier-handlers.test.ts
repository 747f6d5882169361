import { ManualClock, type CheckpointFailureReason } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { TaskEventHandler } from '../../input/channel-event-handler.ts';
import { InputChannel } from '../../input/input-channel.ts';
import { InputGate } from '../../input/input-gate.ts';
import { NetworkInput } from '../../input/network-input.ts';
import { barrierEvent, cancelCheckpointEvent, END_OF_DATA, END_OF_PARTITION } from '../../network/channel-events.ts';
import { encodeRecords } from '../../network/record-codec.ts';
import type { ChannelItem } from '../../network/types.ts';
import { AlignedBarrierHandler } from './aligned-barrier-handler.ts';
import type { CheckpointActions, CheckpointBarrierHandler } from './barrier-handler.ts';
import { BarrierTracker } from './barrier-tracker.ts';

type Item = string | ChannelItem;

/**
 * A gate of named channels fed by the test, read through a real NetworkInput; every record
 * advances the clock by 10 ms, and the log shows records, snapshots and aborts in order.
 */
function fixture(names: string[], mode: 'aligned' | 'tracker') {
  const clock = new ManualClock(0);
  const gate = new InputGate((_, error) => {
    throw error;
  });
  const credits = new Map<string, number>();
  const channels = new Map<string, InputChannel>();
  for (const name of names) {
    const channel = new InputChannel(0, name, gate);
    channel.connect({ addCredit: (n) => credits.set(name, (credits.get(name) ?? 0) + n), close: () => {} });
    gate.add(channel);
    channels.set(name, channel);
  }
  const log: string[] = [];
  const blocked = (): string => names.filter((n) => channels.get(n)!.blocked).join(',');
  const actions: CheckpointActions = {
    triggerCheckpoint: (id, _ts, alignmentMs) => log.push(`snapshot ${id} (alignment ${alignmentMs} ms, blocked [${blocked()}])`),
    abortCheckpoint: (id, reason: CheckpointFailureReason) => log.push(`abort ${id} ${reason}`),
  };
  const context = { gate, clock, actions };
  const handler: CheckpointBarrierHandler = mode === 'aligned' ? new AlignedBarrierHandler(context) : new BarrierTracker(context);
  const target = {
    collect(record: unknown) {
      log.push(String(record));
      clock.advance(10);
    },
  };
  const input = new NetworkInput(gate, [target], new TaskEventHandler(gate, handler), () => gate.isFinished);
  return {
    log,
    gate,
    credits,
    handler,
    channel: (name: string) => channels.get(name)!,
    send(name: string, ...items: Item[]) {
      for (const item of items) {
        channels.get(name)!.onItem(typeof item === 'string' ? { kind: 'buffer', payload: encodeRecords([item]), recordCount: 1 } : item);
      }
    },
    /** Processes until the input has nothing more. */
    drain() {
      for (let i = 0; i < 1000; i++) if (input.emitNext() !== 'more-available') return;
      throw new Error('input never ran dry');
    },
  };
}

const barrier = (id: number): ChannelItem => barrierEvent(id, id * 1000);
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
