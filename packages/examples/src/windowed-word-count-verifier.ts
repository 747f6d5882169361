import { isStraggler, WINDOW_MS, word } from '../jobs/windowed-word-count.ts';

/**
 * What the windowed word count must commit for `count` words, sorted: per 5 s window of event
 * time and word, how many on-time words it had; a "late ..." line per straggler (a minute
 * late, long after its window fired). The others are at most 2 s out of order, within the
 * strategy's 3 s, so none of them is late.
 */
export function expectedWindowedCounts(count: number): string[] {
  const counts = new Map<string, number>();
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const w = word(i);
    if (isStraggler(i)) {
      lines.push(`late ${new Date(w.time).toISOString()} ${w.word}`);
      continue;
    }
    const start = w.time - (w.time % WINDOW_MS);
    const id = `${new Date(start).toISOString()} ${w.word}`;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  for (const [id, n] of counts) lines.push(`${id} ${n}`);
  return lines.sort();
}
