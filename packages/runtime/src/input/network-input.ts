import type { Collector, InputStatus } from '@weir/api';
import { WeirError } from '@weir/common';
import type { RecordBatch } from '../codec/record-codec.ts';
import type { TaskIOMetrics } from '../metrics/task-io-metrics.ts';
import type { ChannelEvent } from '../network/channel-events.ts';
import { KeyedInput } from '../operators/chain-operator.ts';
import type { RecordTimestamp } from '../time/record-timestamp.ts';
import type { ChannelEventHandler } from './channel-event-handler.ts';
import type { InputChannel } from './input-channel.ts';
import type { InputGate } from './input-gate.ts';
import type { TaskInput } from './task-input.ts';

const NEVER: Promise<void> = new Promise(() => {});

/**
 * A task's input from other tasks: takes buffers from the gate, decodes each once (a buffer
 * handed over as objects needs no decoding), and hands its records to the chain one per
 * `emitNext`, so the task can stop between any two records (output full, a sink's pending
 * write, mail). Records that came over a keyBy edge into a keyed head operator go with their
 * key group, so the key is not hashed again. Events go to the event handler. `ended` says when
 * an empty gate means END_OF_INPUT rather than NOTHING_AVAILABLE: once every channel ended
 * its data while running, once every channel delivered its end of partition (and the final
 * checkpoint completed) while finishing.
 */
export class NetworkInput implements TaskInput {
  #records: unknown[] | undefined;
  /** The current buffer's timestamps, NaN for none; undefined when it has none at all. */
  #timestamps: ArrayLike<number> | undefined;
  /** The key groups of #records when they came over a keyBy edge into a keyed head operator. */
  #keyGroups: ArrayLike<number> | undefined;
  #index = 0;
  #channel: InputChannel | undefined;
  #target: Collector<unknown> | undefined;

  constructor(
    private readonly gate: InputGate,
    /** The head operator's collector per input index. */
    private readonly targets: readonly Collector<unknown>[],
    private readonly events: ChannelEventHandler,
    private readonly ended: () => boolean,
    /** Set to each record's timestamp before the record goes to the chain. */
    private readonly timestamp: RecordTimestamp,
    private readonly metrics: TaskIOMetrics,
    /** The head operator, "<name> (<subtask+1>/<parallelism>)", named when a buffer cannot be decoded. */
    private readonly label: string,
  ) {}

  emitNext(): InputStatus {
    const records = this.#records;
    if (records === undefined) return this.#takeNext();
    const index = this.#index++;
    const timestamp = this.#timestamps?.[index];
    this.timestamp.value = timestamp === undefined || Number.isNaN(timestamp) ? undefined : timestamp;
    const last = this.#index === records.length;
    if (last) this.#records = undefined;
    const keyGroups = this.#keyGroups;
    if (keyGroups === undefined) this.#target!.collect(records[index]);
    else (this.#target as KeyedInput).collectInGroup(records[index], keyGroups[index]!);
    if (last) this.#channel!.acknowledgeBuffer();
    return 'more-available';
  }

  /**
   * Takes the unaligned barriers at the head of their channels now, between two records, even
   * in the middle of a buffer (whose rest goes back to its channel first) and even while the
   * output is full: the task's mail runs this when one arrives.
   */
  processPriorityEvents(): void {
    for (let channel = this.gate.pollPriorityChannel(); channel?.priorityEventAtHead === true; channel = this.gate.pollPriorityChannel()) {
      if (this.#records !== undefined) this.#returnCurrentBuffer();
      this.events.onEvent(channel, channel.poll() as ChannelEvent);
      this.gate.channelHasData(channel);
    }
  }

  whenAvailable(): Promise<void> {
    // A finished gate has nothing more to wake the task: only mail (a checkpoint's notification) can.
    return this.gate.isFinished ? NEVER : this.gate.whenAvailable();
  }

  #returnCurrentBuffer(): void {
    const channel = this.#channel!;
    const codec = channel.codec;
    const rest = this.#records!.slice(this.#index).map((record) => codec.prepare(record));
    const keyGroups = this.#keyGroups === undefined ? undefined : Array.from(this.#keyGroups).slice(this.#index);
    const timestamps = this.#timestamps === undefined ? undefined : Array.from(this.#timestamps).slice(this.#index);
    this.#records = undefined;
    channel.returnUnprocessed({ kind: 'buffer', payload: codec.encode(rest, keyGroups, timestamps), recordCount: rest.length });
  }

  #takeNext(): InputStatus {
    const gate = this.gate;
    const channel = gate.pollPriorityChannel() ?? gate.pollChannel();
    if (channel === undefined) return this.ended() ? 'end-of-input' : 'nothing-available';
    const item = channel.poll();
    // Emptied out of turn by the priority path while it waited in the FIFO.
    if (item === undefined) return 'more-available';
    if (item.kind !== 'buffer') {
      // The handler may block the channel (alignment) before it goes back into the gate's FIFO.
      this.events.onEvent(channel, item);
      gate.channelHasData(channel);
      // At once, before the next event: a barrier behind the last end of data belongs after the operators finished.
      return this.ended() ? 'end-of-input' : 'more-available';
    }
    gate.channelHasData(channel);
    let batch: RecordBatch;
    try {
      batch = item.batch ?? channel.codec.decode(item.payload);
    } catch (err) {
      const cause = err as WeirError;
      throw new WeirError(cause.code, `${this.label} cannot read its input from ${channel.description}: ${cause.message}`, { cause });
    }
    const records = batch.records;
    this.metrics.numRecordsIn += records.length;
    // A buffer handed over as objects has no bytes (and asking for its payload would encode it).
    if (item.batch === undefined) this.metrics.numBytesIn += item.payload.byteLength;
    if (records.length === 0) {
      channel.acknowledgeBuffer();
      return 'more-available';
    }
    const target = this.targets[channel.inputIndex];
    this.#records = records;
    this.#timestamps = batch.timestamps;
    this.#keyGroups = batch.keyGroups !== undefined && target instanceof KeyedInput ? batch.keyGroups : undefined;
    this.#index = 0;
    this.#channel = channel;
    this.#target = target;
    return 'more-available';
  }
}
