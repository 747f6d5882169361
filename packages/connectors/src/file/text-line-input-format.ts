const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 13;

/**
 * Lines of UTF-8 text, one record per line without its line ending (\n or \r\n), as
 * Flink's TextLineInputFormat. A file's last line needs no line ending.
 */
export class TextLineInputFormat {
  /**
   * Splits bytes read from a file into a block of complete lines and the bytes to carry
   * into the next read. Splitting at a newline byte is UTF-8 safe: 0x0A never occurs inside
   * a multi-byte character, so a character cut by a chunk boundary stays in the carry.
   */
  split(bytes: Buffer, endOfFile: boolean, file: string, startOffset: number): { block: LineBlock | undefined; consumed: number } {
    if (endOfFile) {
      if (bytes.length === 0) return { block: undefined, consumed: 0 };
      const text = bytes.toString('utf8');
      return {
        block: new LineBlock(file, startOffset, text.endsWith('\n') ? text : `${text}\n`, startOffset + bytes.length),
        consumed: bytes.length,
      };
    }
    const lastNewline = bytes.lastIndexOf(NEWLINE);
    if (lastNewline < 0) return { block: undefined, consumed: 0 };
    const consumed = lastNewline + 1;
    return { block: new LineBlock(file, startOffset, bytes.toString('utf8', 0, consumed), startOffset + consumed), consumed };
  }
}

/**
 * Complete lines of one file, decoded once: `nextLine` is an indexOf and a slice. The byte
 * offset of the next line is only computed when asked (for a checkpoint), not per line.
 */
export class LineBlock {
  #pos = 0;

  constructor(
    readonly file: string,
    readonly startOffset: number,
    /** Ends with '\n'. */
    private readonly text: string,
    /** Byte offset just past this block in the file. */
    readonly endOffset: number,
  ) {}

  nextLine(): string | undefined {
    const start = this.#pos;
    if (start >= this.text.length) return undefined;
    const newline = this.text.indexOf('\n', start);
    this.#pos = newline + 1;
    const end = newline > start && this.text.charCodeAt(newline - 1) === CARRIAGE_RETURN ? newline - 1 : newline;
    return this.text.slice(start, end);
  }

  /** The byte offset in the file of the line `nextLine` returns next. */
  nextLineOffset(): number {
    if (this.#pos >= this.text.length) return this.endOffset;
    return this.startOffset + Buffer.byteLength(this.text.slice(0, this.#pos), 'utf8');
  }
}
