const UNIT_BYTES = { b: 1, kb: 1_024, mb: 1_024 ** 2, gb: 1_024 ** 3 } as const;

/** The units a memory size may use, in the order messages list them. */
export const MEMORY_UNITS = Object.keys(UNIT_BYTES) as readonly (keyof typeof UNIT_BYTES)[];

/**
 * Bytes for `64mb`, `512 kb`, `1g`, `1.5gb` or a plain number of bytes, as Flink's MemorySize
 * reads them (binary units: 1kb is 1024 bytes; `k`, `m`, `g` are short for them), or
 * undefined when the text is none of these or not a whole number of bytes.
 */
export function parseMemorySize(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb?|mb?|gb?)?$/i.exec(text.trim());
  if (match === null) return undefined;
  const unit = (match[2] ?? 'b').toLowerCase();
  const bytes = Number(match[1]) * UNIT_BYTES[(unit.length === 1 && unit !== 'b' ? `${unit}b` : unit) as keyof typeof UNIT_BYTES];
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** `bytes` the way a config value would write it, in the largest whole unit: `64mb`, `1536kb`, `100b`. */
export function memorySizeText(bytes: number): string {
  const unit = (['gb', 'mb', 'kb'] as const).find((u) => bytes > 0 && bytes % UNIT_BYTES[u] === 0) ?? 'b';
  return `${bytes / UNIT_BYTES[unit]}${unit}`;
}
