import { systemClock, type Clock, type TimerHandle } from '@weir/common';

/** A message as the pipeline sizes it: its key, value and header bytes. */
export interface SizedMessage {
  readonly key?: Uint8Array | undefined;
  readonly value?: Uint8Array | null | undefined;
  readonly headers?: ReadonlyMap<Uint8Array, Uint8Array> | Readonly<Record<string, Uint8Array>> | undefined;
}

export interface ProducePipelineOptions<M extends SizedMessage> {
  /** Sends one produce request; rejects when the broker refused it. */
  readonly send: (messages: M[]) => Promise<void>;
  /** A request goes out once this many records wait, or `lingerMs` after the first of them. */
  readonly batchRecords: number;
  readonly lingerMs: number;
  /** At most this many records in one request... */
  readonly maxRequestRecords: number;
  /** ...and at most this many bytes of keys and values (the broker refuses a record batch over its max.message.bytes, 1 MiB by default). */
  readonly maxRequestBytes: number;
  readonly clock?: Clock;
}

/**
 * Batches a sink's records into produce requests, one request in flight at a time, as Kafka's
 * own producer does for an idempotent producer that must keep its sequence numbers in order
 * (two concurrent requests can reach the broker out of order, which it refuses with
 * OUT_OF_ORDER_SEQUENCE_NUMBER). While a request is in flight the next one fills up, and goes
 * out whole as soon as the first is acknowledged, so a slow broker gets fewer, larger
 * requests instead of a queue of small ones. `add` asks its caller to wait (returns a promise)
 * once a full request is waiting behind the one in flight: at most two requests' worth of
 * records are held.
 */
export class ProducePipeline<M extends SizedMessage> {
  readonly #clock: Clock;
  #waiting: M[] = [];
  #waitingBytes = 0;
  #inFlight: Promise<void> | undefined;
  #linger: TimerHandle | undefined;
  /** The first refusal; every later call rethrows it. */
  #failure: unknown;
  #failed = false;

  constructor(private readonly options: ProducePipelineOptions<M>) {
    this.#clock = options.clock ?? systemClock;
  }

  /** Queues one record; a promise when the caller should wait before adding more. Throws once a send failed. */
  add(message: M): void | Promise<void> {
    this.#throwIfFailed();
    this.#waiting.push(message);
    this.#waitingBytes += sizeOf(message);
    if (this.#inFlight === undefined) {
      if (this.#waiting.length >= this.options.batchRecords || this.#waitingBytes >= this.options.maxRequestBytes) this.#sendWaiting();
      else this.#linger ??= this.#clock.setTimeout(() => this.#onLinger(), this.options.lingerMs);
      return;
    }
    if (this.#waiting.length >= this.options.maxRequestRecords || this.#waitingBytes >= this.options.maxRequestBytes) return this.#afterInFlight();
  }

  /** Sends everything queued; resolves once the broker acknowledged all of it, rejects with the first refusal. */
  async flush(): Promise<void> {
    while (this.#inFlight !== undefined || this.#waiting.length > 0) {
      this.#throwIfFailed();
      if (this.#inFlight === undefined) this.#sendWaiting();
      await this.#inFlight;
    }
    this.#throwIfFailed();
  }

  /** Stops the linger timer and waits for the request in flight; records still queued are dropped. */
  async close(): Promise<void> {
    this.#clearLinger();
    this.#waiting = [];
    this.#waitingBytes = 0;
    await this.#inFlight;
  }

  #onLinger(): void {
    this.#linger = undefined;
    if (this.#inFlight === undefined && !this.#failed) this.#sendWaiting();
  }

  /** Resolves when the request in flight is done (and the next one, if any, went out). */
  async #afterInFlight(): Promise<void> {
    await this.#inFlight;
    this.#throwIfFailed();
  }

  /** Sends as many queued records as one request takes; on its acknowledgement the rest follows at once. */
  #sendWaiting(): void {
    this.#clearLinger();
    if (this.#waiting.length === 0) return;
    let count = 0;
    let bytes = 0;
    while (count < this.#waiting.length && count < this.options.maxRequestRecords) {
      const size = sizeOf(this.#waiting[count]!);
      if (count > 0 && bytes + size > this.options.maxRequestBytes) break;
      bytes += size;
      count++;
    }
    const messages = count === this.#waiting.length ? this.#waiting : this.#waiting.slice(0, count);
    this.#waiting = count === this.#waiting.length ? [] : this.#waiting.slice(count);
    this.#waitingBytes -= bytes;
    this.#inFlight = this.options.send(messages).then(
      () => {
        this.#inFlight = undefined;
        // What queued up meanwhile goes out now: it already waited a whole round trip.
        if (this.#waiting.length > 0) this.#sendWaiting();
      },
      (err: unknown) => {
        this.#inFlight = undefined;
        if (!this.#failed) {
          this.#failed = true;
          this.#failure = err;
        }
      },
    );
  }

  #clearLinger(): void {
    if (this.#linger === undefined) return;
    this.#clock.clearTimeout(this.#linger);
    this.#linger = undefined;
  }

  #throwIfFailed(): void {
    if (this.#failed) throw this.#failure;
  }
}

/** A record's bytes on the wire, roughly: key, value, headers and a few bytes of framing. */
function sizeOf(message: SizedMessage): number {
  return (message.value?.byteLength ?? 0) + (message.key?.byteLength ?? 0) + 16 + headerBytes(message.headers);
}

function headerBytes(headers: SizedMessage['headers']): number {
  if (headers === undefined) return 0;
  let bytes = 0;
  const entries = headers instanceof Map ? headers.entries() : Object.entries(headers);
  for (const [key, value] of entries as Iterable<[Uint8Array | string, Uint8Array]>) bytes += (typeof key === 'string' ? key.length : key.byteLength) + value.byteLength + 4;
  return bytes;
}
