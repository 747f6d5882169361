/** One row of a query's result: its columns in order. */
export type Row = readonly (number | string)[];

/**
 * An order-independent fingerprint of a multiset of rows: their count, and the sum and the XOR
 * of their hashes (mod 2^32). Rows counted by parallel sinks combine by adding counts and sums
 * and XORing. Two results with the same digest are, beyond any doubt that matters here, the same.
 */
export interface Digest {
  readonly rows: number;
  readonly sum: number;
  readonly xor: number;
}

export const EMPTY_DIGEST: Digest = { rows: 0, sum: 0, xor: 0 };

export function combine(a: Digest, b: Digest): Digest {
  return { rows: a.rows + b.rows, sum: (a.sum + b.sum) >>> 0, xor: (a.xor ^ b.xor) >>> 0 };
}

export function digestOf(rows: Iterable<Row>): Digest {
  const builder = new DigestBuilder();
  for (const row of rows) builder.add(row);
  return builder.digest();
}

/** A digest built row by row without allocating. */
export class DigestBuilder {
  #rows = 0;
  #sum = 0;
  #xor = 0;

  add(row: Row): void {
    const h = hashRow(row);
    this.#rows++;
    this.#sum = (this.#sum + h) >>> 0;
    this.#xor = (this.#xor ^ h) >>> 0;
  }

  digest(): Digest {
    return { rows: this.#rows, sum: this.#sum, xor: this.#xor };
  }
}

const float = new Float64Array(1);
const halves = new Uint32Array(float.buffer);

/** FNV-1a over each column: a string's UTF-16 code units, a number's float64 bits; a marker between columns. */
export function hashRow(row: Row): number {
  let h = 0x811c9dc5;
  for (const value of row) {
    if (typeof value === 'string') {
      for (let i = 0; i < value.length; i++) h = Math.imul(h ^ value.charCodeAt(i), 0x01000193);
    } else {
      float[0] = value;
      h = Math.imul(h ^ halves[0]!, 0x01000193);
      h = Math.imul(h ^ halves[1]!, 0x01000193);
    }
    h = Math.imul(h ^ 0xff, 0x01000193);
  }
  return h >>> 0;
}
