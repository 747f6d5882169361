import type { Collector, InputStatus } from '@weir/api';
import type { TaskIOMetrics } from '../metrics/task-io-metrics.ts';
import type { ChannelEvent } from '../network/channel-events.ts';
import { decodeRecordBatch, encodeRecords } from '../network/record-codec.ts';
import type { RecordTimestamp } from '../time/record-timestamp.ts';
import type { ChannelEventHandler } from './channel-event-handler.ts';
import type { InputChannel } from './input-channel.ts';
import { inputFailure } from './input-failure.ts';
import type { InputGate } from './input-gate.ts';
import type { TaskInput } from './task-input.ts';

const NEVER: Promise<void> = new Promise(() => {});

/**
 * A task's input from other tasks: takes buffers from the gate, decodes each once, and
 * hands its records to the chain one per `emitNext`, so the task can stop between any two
 * records (output full, a sink's pending write, mail). Events go to the event handler.
 * `ended` says when an empty gate means END_OF_INPUT rather than NOTHING_AVAILABLE: once
 * every channel ended its data while running, once every channel delivered its end of
 * partition (and the final checkpoint completed) while finishing.
 */
export class NetworkInput implements TaskInput {
  #records: unknown[] | undefined;
  /** The current buffer's timestamps, NaN for none; undefined when it has none at all. */
  #timestamps: Float64Array | undefined;
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
  ) {}

  emitNext(): InputStatus {
    const records = this.#records;
    if (records === undefined) return this.#takeNext();
    const timestamp = this.#timestamps?.[this.#index];
    this.timestamp.value = timestamp === undefined || Number.isNaN(timestamp) ? undefined : timestamp;
    const record = records[this.#index++];
    if (this.#index !== records.length) {
      this.#target!.collect(record);
      return 'more-available';
    }
    this.#records = undefined;
    this.#target!.collect(record);
    this.#channel!.acknowledgeBuffer();
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
    const rest = this.#records!.slice(this.#index);
    const channel = this.#channel!;
    this.#records = undefined;
    channel.returnUnprocessed({ kind: 'buffer', payload: encodeRecords(rest, this.#timestamps?.slice(this.#index)), recordCount: rest.length });
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
    let records: unknown[];
    let timestamps: Float64Array | undefined;
    try {
      ({ records, timestamps } = decodeRecordBatch(item.payload));
    } catch (err) {
      throw inputFailure(channel, new Error(`a record buffer could not be decoded: ${(err as Error).message}`));
    }
    this.metrics.numRecordsIn += records.length;
    this.metrics.numBytesIn += item.payload.byteLength;
    if (records.length === 0) {
      channel.acknowledgeBuffer();
      return 'more-available';
    }
    this.#records = records;
    this.#timestamps = timestamps;
    this.#index = 0;
    this.#channel = channel;
    this.#target = this.targets[channel.inputIndex];
    return 'more-available';
  }
}
