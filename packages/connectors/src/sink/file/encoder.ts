/** Turns a record into the text written to a part file (Flink's Encoder, row format). */
export interface Encoder<T> {
  /** The text for `record`, its line ending included (Flink's encoder writes bytes to a stream). */
  encode(record: T): string;
}

/** `String(record)` and a newline, as UTF-8. */
export class SimpleStringEncoder<T> implements Encoder<T> {
  encode(record: T): string {
    return `${String(record)}\n`;
  }
}
