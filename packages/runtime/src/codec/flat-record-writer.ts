/** msgpackr's record extension: `0xd4 0x72 id` and the array of keys define a structure, after which `id` alone starts a record. */
const FIXEXT1 = 0xd4;
const RECORD_DEFINITION = 0x72;
/** A buffer's own structures take one-byte ids 0x40..0x7f, as msgpackr's do (64 of them, no shared ones). */
const FIRST_ID = 0x40;
const MAX_STRUCTURES = 64;
/** No such form (#sized). */
const NONE = -1;

/**
 * Writes an array of records as msgpackr (records on, no shared structures) writes it, for the
 * common records: plain objects whose fields are strings, numbers, booleans or null, and those
 * primitives themselves. Anything else (a nested object, an array, -0, undefined, a key
 * msgpackr treats specially) makes `encode` answer undefined, and the caller has msgpackr
 * write the whole array.
 *
 * Why: msgpackr finds an object's structure by walking a tree of transitions, one property
 * lookup per key, and tests hasOwnProperty per key twice; here a record of the same shape as
 * the one before is recognized by comparing its keys with that shape's (the same interned
 * strings), which made packing a buffer of { key, amount } records some 3x faster. msgpackr's
 * Unpackr reads the bytes, as it reads its own: each buffer defines its structures before
 * their first record, so it still decodes on its own.
 */
export class FlatRecordWriter {
  #target: Buffer = Buffer.allocUnsafe(64 * 1024);
  #view = new DataView(this.#target.buffer, this.#target.byteOffset, this.#target.byteLength);
  #position = 0;
  /** The keys of each structure defined in the current array, by id - FIRST_ID. */
  #structures: string[][] = [];
  /** The structure of the last object written, and its id: the next object most likely has it too. */
  #last: string[] | undefined;
  #lastId = 0;

  /** The MessagePack of `records`, valid until the next call; undefined when a record is not one this writer handles. */
  encode(records: readonly unknown[]): Uint8Array | undefined {
    // for-in also yields enumerable properties inherited from Object.prototype, which msgpackr leaves out.
    for (const _ in Object.prototype) return undefined;
    this.#position = 0;
    this.#structures = [];
    this.#last = undefined;
    const count = records.length;
    this.#arrayHeader(count);
    for (let i = 0; i < count; i++) {
      const record = records[i];
      if (typeof record === 'object' && record !== null ? !this.#object(record) : !this.#primitive(record)) return undefined;
    }
    return this.#target.subarray(0, this.#position);
  }

  /** A field or a record that is not an object. */
  #primitive(value: unknown): boolean {
    switch (typeof value) {
      case 'string':
        this.#string(value);
        return true;
      case 'number':
        return this.#number(value);
      case 'boolean':
        this.#ensure(1);
        this.#target[this.#position++] = value ? 0xc3 : 0xc2;
        return true;
      case 'object':
        if (value !== null) return false;
        this.#ensure(1);
        this.#target[this.#position++] = 0xc0;
        return true;
      default:
        return false;
    }
  }

  #object(object: object): boolean {
    // msgpackr writes an object as a record when its constructor is Object; a plain one's prototype is Object.prototype.
    // (The constructor read first also lets V8 fold getPrototypeOf, see generic-values.ts.)
    if (object.constructor !== Object || Object.getPrototypeOf(object) !== Object.prototype) return false;
    const start = this.#position;
    // The structure's id goes here once known; a new structure's definition is inserted instead.
    this.#ensure(1);
    this.#position++;
    const last = this.#last;
    let same = last !== undefined;
    let n = 0;
    for (const key in object) {
      if (same && last![n] !== key) same = false;
      n++;
      const value = (object as Record<string, unknown>)[key];
      // Nested objects and arrays are msgpackr's.
      if ((typeof value === 'object' && value !== null) || !this.#primitive(value)) {
        this.#position = start;
        return false;
      }
    }
    if (same && n === last!.length) {
      this.#target[start] = this.#lastId;
      return true;
    }
    return this.#structure(object, start);
  }

  /** The record at `start` has another structure than the one before: its id, or a definition when the array has none yet. */
  #structure(object: object, start: number): boolean {
    const keys: string[] = [];
    // msgpackr writes these keys otherwise (or checks hasOwnProperty, which an own key of that name changes).
    for (const key in object) {
      if (key === '__proto__' || key === 'constructor' || key === 'hasOwnProperty') {
        this.#position = start;
        return false;
      }
      keys.push(key);
    }
    const structures = this.#structures;
    let index = structures.findIndex((s) => s.length === keys.length && s.every((k, i) => k === keys[i]));
    if (index < 0) {
      if (structures.length === MAX_STRUCTURES) {
        this.#position = start;
        return false;
      }
      index = structures.push(keys) - 1;
      this.#define(FIRST_ID + index, keys, start);
    } else {
      this.#target[start] = FIRST_ID + index;
    }
    this.#last = structures[index];
    this.#lastId = FIRST_ID + index;
    return true;
  }

  /** Puts the definition of structure `id` in front of the values written after `start` (where one byte was kept for the id). */
  #define(id: number, keys: readonly string[], start: number): void {
    const valuesEnd = this.#position;
    // Written after the values, then rotated into place.
    this.#ensure(3);
    this.#target[this.#position++] = FIXEXT1;
    this.#target[this.#position++] = RECORD_DEFINITION;
    this.#target[this.#position++] = id;
    this.#arrayHeader(keys.length);
    for (const key of keys) this.#string(key);
    const definition = this.#target.subarray(valuesEnd, this.#position);
    const length = definition.length;
    const copy = Buffer.from(definition);
    this.#target.copyWithin(start + length, start + 1, valuesEnd);
    copy.copy(this.#target, start);
    this.#position = valuesEnd - 1 + length;
  }

  #arrayHeader(length: number): void {
    this.#sized(length, 0x90, 0x10, NONE, 0xdc, 0xdd);
  }

  /**
   * A length or unsigned integer in MessagePack's classes: below `fixLimit` in one byte
   * (`fix` + n); else the smallest of the 8-, 16- and 32-bit forms (type byte, big-endian
   * value) the type has (arrays have no 8-bit form: NONE).
   */
  #sized(n: number, fix: number, fixLimit: number, code8: number, code16: number, code32: number): void {
    this.#ensure(5);
    const t = this.#target;
    if (n < fixLimit) t[this.#position++] = fix + n;
    else if (n < 0x100 && code8 !== NONE) {
      t[this.#position++] = code8;
      t[this.#position++] = n;
    } else if (n < 0x10000) {
      t[this.#position++] = code16;
      t[this.#position++] = n >> 8;
      t[this.#position++] = n & 0xff;
    } else {
      t[this.#position++] = code32;
      this.#view.setUint32(this.#position, n);
      this.#position += 4;
    }
  }

  /** UTF-8; ASCII strings under 32 characters (most keys and short values) byte by byte, others through Buffer's encoder. */
  #string(s: string): void {
    const n = s.length;
    if (n < 0x20) {
      this.#ensure(n + 1);
      const t = this.#target;
      let at = this.#position + 1;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        t[at++] = c;
      }
      if (i === n) {
        t[this.#position] = 0xa0 | n;
        this.#position = at;
        return;
      }
    }
    const bytes = Buffer.byteLength(s, 'utf8');
    this.#sized(bytes, 0xa0, 0x20, 0xd9, 0xda, 0xdb);
    this.#ensure(bytes);
    this.#position += this.#target.write(s, this.#position, bytes, 'utf8');
  }

  /** As msgpackr writes numbers (integers 0x40..0x7f not as fixints: those bytes start records); false for -0, which it writes as 0. */
  #number(value: number): boolean {
    if (value >>> 0 === value) {
      if (value === 0 && 1 / value < 0) return false;
      this.#sized(value, 0, 0x40, 0xcc, 0xcd, 0xce);
      return true;
    }
    this.#ensure(9);
    const t = this.#target;
    if (value >> 0 === value) {
      if (value >= -0x20) t[this.#position++] = 0x100 + value;
      else if (value >= -0x80) {
        t[this.#position++] = 0xd0;
        t[this.#position++] = value + 0x100;
      } else if (value >= -0x8000) {
        t[this.#position++] = 0xd1;
        this.#view.setInt16(this.#position, value);
        this.#position += 2;
      } else {
        t[this.#position++] = 0xd2;
        this.#view.setInt32(this.#position, value);
        this.#position += 4;
      }
    } else {
      t[this.#position++] = 0xcb;
      this.#view.setFloat64(this.#position, value);
      this.#position += 8;
    }
    return true;
  }

  #ensure(bytes: number): void {
    if (this.#position + bytes <= this.#target.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.#target.length, this.#position + bytes));
    this.#target.copy(grown, 0, 0, this.#position);
    this.#target = grown;
    this.#view = new DataView(grown.buffer, grown.byteOffset, grown.byteLength);
  }
}
