import type { TypeInformation } from '@weir/api';
import { WeirError } from '@weir/common';
import { Packr, Unpackr } from 'msgpackr';
import { RuntimeErrorCode } from '../errors.ts';
import { copyPlain, NOT_PLAIN } from './copy-record.ts';
import { FlatRecordWriter } from './flat-record-writer.ts';
import { REFUSED, SPECIAL, type Problem } from './generic-values.ts';
import './special-values.ts';
import { ConvertProblem, planFor, type TypePlan } from './type-plan.ts';

/**
 * The records of one buffer, decoded; the key group of each when they came over a keyBy edge
 * (computed once by the producer to route them, so the consumer does not hash the key again);
 * and their event-time timestamps when any has one (NaN: none).
 */
export interface RecordBatch {
  readonly records: unknown[];
  readonly keyGroups: ArrayLike<number> | undefined;
  readonly timestamps: ArrayLike<number> | undefined;
}

/** Bits of a buffer's first byte: what follows the record count (u32), before the records. */
const KEY_GROUPS = 1;
const TIMESTAMPS = 2;

/**
 * The one codec of records between tasks, per stream: what the producer's record writer
 * encodes, the consumer's input decodes, and unaligned checkpoints store as channel state.
 *
 * A buffer is a flag byte, the record count (u32), the key groups (u16 each) and timestamps
 * (f64 each) when there are any, then one MessagePack array of the records written by msgpackr
 * with record structures: each object shape is defined once
 * per buffer (so every buffer decodes on its own, also when restored from channel state) and
 * each record is its values. Records keep their types: `prepare` checks every record against
 * the stream's declared type, or against what structured clone supports when undeclared, and
 * refuses what would arrive changed (RECORD_REFUSED, naming the field and what to do).
 */
export class RecordCodec {
  readonly #plan: TypePlan;
  readonly #revive: ((value: unknown) => unknown) | undefined;
  readonly #packr = new Packr({ moreTypes: true });
  /** Writes the usual flat records as #packr would, faster; #packr writes the rest. */
  readonly #flat = new FlatRecordWriter();
  // copyBuffers: a Buffer in a record must not keep its whole network buffer alive.
  readonly #unpackr = new Unpackr({ moreTypes: true, copyBuffers: true });

  constructor(
    type: TypeInformation<unknown> | undefined,
    /** The consuming operator, named in refusals: "'Count'". */
    private readonly target: string,
  ) {
    this.#plan = planFor(type);
    this.#revive = this.#plan.revive;
  }

  /**
   * Checks a record as it is emitted: false when it travels as it is, true when it must be
   * converted first (a -0, a hole, a prototype-less object, a CUSTOM value to serialize).
   * Throws RECORD_REFUSED for a record that would arrive changed.
   */
  check(record: unknown): boolean {
    const flags = this.#plan.check(record, 0);
    // A Map alone (the MAP flag) travels as it is in a record.
    if ((flags & (SPECIAL | REFUSED)) === 0) return false;
    if ((flags & REFUSED) !== 0) throw this.#refusal(this.#plan.problem(record, '', 0));
    return true;
  }

  /** The record as msgpackr must write it: itself, or a copy with the wrappers of special-values.ts in place. */
  prepare(record: unknown): unknown {
    if (!this.check(record)) return record;
    try {
      return this.#plan.convert(record);
    } catch (err) {
      if (err instanceof ConvertProblem) throw this.#refusal(err.problem);
      throw err;
    }
  }

  /**
   * One buffer of checked records, with their key groups when routed by key and their
   * timestamps when any has one; `special` when `check` said some record needs converting.
   */
  encode(records: readonly unknown[], keyGroups?: ArrayLike<number>, timestamps?: ArrayLike<number>, special = false): Uint8Array {
    const body = (special ? undefined : this.#flat.encode(records)) ?? this.#packr.pack(special ? records.map((record) => this.prepare(record)) : records);
    const count = records.length;
    const header = 5 + (keyGroups === undefined ? 0 : 2 * count) + (timestamps === undefined ? 0 : 8 * count);
    const payload = new Uint8Array(header + body.byteLength);
    const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
    payload[0] = (keyGroups === undefined ? 0 : KEY_GROUPS) | (timestamps === undefined ? 0 : TIMESTAMPS);
    view.setUint32(1, count, true);
    let offset = 5;
    if (keyGroups !== undefined) {
      for (let i = 0; i < count; i++, offset += 2) view.setUint16(offset, keyGroups[i]!, true);
    }
    if (timestamps !== undefined) {
      for (let i = 0; i < count; i++, offset += 8) view.setFloat64(offset, timestamps[i]!, true);
    }
    payload.set(body, header);
    return payload;
  }

  /**
   * A copy of the record as a consumer over the network would get it (a chained operator that
   * must not share it with another output): copied directly when it is plain data of an
   * undeclared or plain type, else encoded and decoded. Throws RECORD_REFUSED as `check` does.
   */
  copy(record: unknown): unknown {
    if (this.#revive === undefined) {
      const copy = copyPlain(record, 0);
      if (copy !== NOT_PLAIN) return copy;
    }
    return this.decode(this.encode([record], undefined, undefined, this.check(record))).records[0];
  }

  /** Throws RECORD_DECODE_FAILED for bytes that are not a buffer of this codec. */
  decode(payload: Uint8Array): RecordBatch {
    try {
      const flags = payload[0]!;
      if (payload.byteLength < 5 || (flags & ~(KEY_GROUPS | TIMESTAMPS)) !== 0) throw new Error(`it starts with ${flags}, not a record buffer's flag byte`);
      const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
      const count = view.getUint32(1, true);
      let offset = 5;
      let keyGroups: Uint16Array | undefined;
      let timestamps: Float64Array | undefined;
      if ((flags & KEY_GROUPS) !== 0) {
        keyGroups = new Uint16Array(count);
        for (let i = 0; i < count; i++, offset += 2) keyGroups[i] = view.getUint16(offset, true);
      }
      if ((flags & TIMESTAMPS) !== 0) {
        timestamps = new Float64Array(count);
        for (let i = 0; i < count; i++, offset += 8) timestamps[i] = view.getFloat64(offset, true);
      }
      // From a Buffer, so that BYTES come back as the Buffer or Uint8Array they were (msgpackr reads bin as the source's class).
      const records: unknown = this.#unpackr.unpack(Buffer.from(payload.buffer, payload.byteOffset + offset, payload.byteLength - offset));
      if (!Array.isArray(records)) throw new Error(`it holds ${typeof records}, not an array of records`);
      if (records.length !== count) throw new Error(`it holds ${records.length} records but says ${count}`);
      const revive = this.#revive;
      if (revive !== undefined) for (let i = 0; i < records.length; i++) records[i] = revive(records[i]);
      return { records, keyGroups, timestamps };
    } catch (err) {
      throw new WeirError(RuntimeErrorCode.RECORD_DECODE_FAILED, `a record buffer (${payload.byteLength} bytes) could not be decoded: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }

  #refusal(problem: Problem | undefined): WeirError {
    if (problem === undefined) {
      return new WeirError(RuntimeErrorCode.RECORD_REFUSED, `cannot send a record to ${this.target} unchanged`);
    }
    const subject = problem.path === '' ? 'the record' : `field '${problem.path}'`;
    return new WeirError(RuntimeErrorCode.RECORD_REFUSED, `cannot send a record to ${this.target} unchanged: ${subject} is ${problem.found}; ${problem.remedy}`);
  }
}
