import type { RecordCodec } from '../codec/record-codec.ts';
import type { BarrierEvent } from '../network/channel-events.ts';
import { encodedNow } from '../network/object-buffer.ts';
import { insertBeforeTrailingBuffers } from '../network/priority-insert.ts';
import type { BufferItem, ChannelItem, ChannelListener, Subscription } from '../network/types.ts';
import { ChannelRecording } from './channel-recording.ts';

/** What a channel reports to its gate. */
export interface ChannelOwner {
  channelHasData(channel: InputChannel): void;
  /** An unaligned barrier arrived: the task should take it before the channel's buffers behind it. */
  channelHasPriorityEvent(channel: InputChannel): void;
  channelFailed(channel: InputChannel, error: Error): void;
}

/** The producer subtask a channel reads from: where its input channel state belongs. */
export interface ChannelSource {
  readonly vertexId: string;
  readonly subtask: number;
  /** The edge's position among this task's vertex inputs. */
  readonly input: number;
}

/**
 * One subscribed subpartition: items queue here in channel order until the task takes them.
 * A buffer's credit goes back to the producer only once all of its records were processed,
 * so a channel never holds more buffers than the credit it granted.
 *
 * An unaligned barrier is a priority event: it goes ahead of the buffers queued behind the
 * last event (the buffers it overtakes), and the channel remembers those buffers for the
 * checkpoint's input channel state.
 */
export class InputChannel implements ChannelListener {
  readonly local = true;
  readonly #queue: ChannelItem[] = [];
  #subscription: Subscription | undefined;
  #unacknowledged = 0;
  #closed = false;
  /** Unaligned barriers queued and not taken yet. */
  #priorityEvents = 0;
  readonly #overtaken = new Map<BarrierEvent, BufferItem[]>();
  #lastOvertaken: BufferItem[] = [];
  #recording: ChannelRecording | undefined;
  /** Position in the gate's channels (set when added): the channel's slot in the task's watermark valve. */
  index = -1;
  /** Maintained by the gate: the channel sits in its queue of channels with data. */
  queuedInGate = false;
  /** Held back by checkpoint alignment: the gate takes nothing from it, so its buffers keep their credit. */
  blocked = false;
  /** End of data or end of partition came: no more records on this channel. */
  dataEnded = false;
  finished = false;

  constructor(
    readonly inputIndex: number,
    /** "<producer vertex name> subtask <i>", for error messages. */
    readonly description: string,
    private readonly owner: ChannelOwner,
    readonly source: ChannelSource,
    /** Decodes the channel's buffers: the codec of its edge. */
    readonly codec: RecordCodec,
  ) {}

  connect(subscription: Subscription): void {
    this.#subscription = subscription;
  }

  get hasData(): boolean {
    return this.#queue.length !== 0;
  }

  /** Unaligned barriers waiting in the queue. */
  get hasPriorityEvent(): boolean {
    return this.#priorityEvents !== 0;
  }

  /** The next item is an unaligned barrier: the task may take it at once, between any two records. */
  get priorityEventAtHead(): boolean {
    const head = this.#queue[0];
    return head?.kind === 'barrier' && head.unaligned;
  }

  /**
   * The unprocessed rest of the buffer the task was reading, given back when an unaligned
   * barrier is taken in the middle of it: it goes before the channel's other buffers, behind
   * the unaligned barriers at the head (which it precedes, so it joins what they overtook).
   * Its credit stays owed until the task finished it.
   */
  returnUnprocessed(buffer: BufferItem): void {
    const queue = this.#queue;
    let at = 0;
    for (; at < queue.length; at++) {
      const item = queue[at]!;
      if (item.kind !== 'barrier' || !item.unaligned) break;
      this.#overtaken.get(item)?.unshift(buffer);
    }
    queue.splice(at, 0, buffer);
    this.owner.channelHasData(this);
  }

  /** Items received but not taken yet, in channel order. */
  get queued(): readonly ChannelItem[] {
    return this.#queue;
  }

  /** Buffers received whose credit has not gone back yet: queued here or being processed. */
  get unacknowledgedBuffers(): number {
    return this.#unacknowledged;
  }

  onItem(item: ChannelItem): void {
    if (this.#closed) return;
    this.#recording?.onArrival(item);
    if (item.kind === 'buffer') this.#unacknowledged++;
    if (item.kind === 'barrier' && item.unaligned) {
      this.#queuePriority(item);
      return;
    }
    this.#queue.push(item);
    this.owner.channelHasData(this);
  }

  onError(error: Error): void {
    if (this.#closed) return;
    this.owner.channelFailed(this, error);
  }

  poll(): ChannelItem | undefined {
    const item = this.#queue.shift();
    if (item?.kind === 'barrier' && item.unaligned) {
      this.#priorityEvents--;
      this.#lastOvertaken = this.#overtaken.get(item) ?? [];
      this.#overtaken.delete(item);
    }
    return item;
  }

  /** The buffers the unaligned barrier taken last overtook (received before it, still queued then); empty for an aligned one. */
  takeOvertaken(): BufferItem[] {
    const buffers = this.#lastOvertaken;
    this.#lastOvertaken = [];
    return buffers;
  }

  /**
   * Unaligned checkpoint `checkpointId` started before this channel delivered its barrier:
   * every buffer before that barrier (queued now, or arriving until it) is input channel state.
   */
  startRecording(checkpointId: number): void {
    const recording = new ChannelRecording(checkpointId);
    for (const item of this.#queue) {
      if (item.kind === 'barrier' && item.unaligned && item.checkpointId >= checkpointId) recording.addAll(this.#overtaken.get(item) ?? []);
      recording.onArrival(item);
      if (recording.closed) break;
    }
    this.#recording = recording;
  }

  /** The recorded buffers once the barrier (or the end of partition) arrived; undefined while still recording or not recording. */
  recorded(): BufferItem[] | undefined {
    const recording = this.#recording;
    return recording?.closed === true ? recording.buffers : undefined;
  }

  /** The checkpoint was aborted or its channel state taken: record nothing more. */
  stopRecording(): void {
    this.#recording = undefined;
  }

  acknowledgeBuffer(): void {
    this.#unacknowledged--;
    if (!this.#closed) this.#subscription?.addCredit(1);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue.length = 0;
    this.#unacknowledged = 0;
    this.#priorityEvents = 0;
    this.#overtaken.clear();
    this.#subscription?.close();
  }

  #queuePriority(barrier: BarrierEvent): void {
    // Channel state, so encoded now, before the task processes (and may change) their records.
    this.#overtaken.set(barrier, insertBeforeTrailingBuffers(this.#queue, barrier).map(encodedNow));
    this.#priorityEvents++;
    this.owner.channelHasPriorityEvent(this);
    this.owner.channelHasData(this);
  }
}
