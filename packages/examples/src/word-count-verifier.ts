/** The word-count job's rule, repeated here so the check does not trust the job: lower case, runs of letters and digits. */
export function splitWords(line: string): string[] {
  return line.toLowerCase().match(/[a-z0-9]+/g) ?? [];
}

/** Occurrences of each word in `text`. */
export function countWords(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of splitWords(text)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

export interface WordCountCheck {
  /** Total words and distinct words of the input. */
  readonly words: number;
  readonly distinct: number;
  /** One line per difference ("the: expected 12, got 11"); empty when the output matches. */
  readonly differences: string[];
}

/**
 * Compares the job's "<word> <count>" output lines with the counts computed from the input.
 * The job emits every update, so a word's result is the largest count emitted for it.
 */
export function checkWordCount(inputText: string, outputLines: readonly string[]): WordCountCheck {
  const expected = countWords(inputText);
  const actual = new Map<string, number>();
  const differences: string[] = [];
  for (const line of outputLines) {
    const match = /^(\S+) (\d+)$/.exec(line);
    if (match === null) {
      differences.push(`malformed output line ${JSON.stringify(line)}: expected "<word> <count>"`);
      continue;
    }
    actual.set(match[1]!, Math.max(actual.get(match[1]!) ?? 0, Number(match[2])));
  }
  for (const [word, count] of expected) {
    const got = actual.get(word);
    if (got !== count) differences.push(`${word}: expected ${count}, got ${got ?? 'nothing'}`);
  }
  for (const [word, count] of actual) {
    if (!expected.has(word)) differences.push(`${word}: expected nothing, got ${count}`);
  }
  let words = 0;
  for (const count of expected.values()) words += count;
  return { words, distinct: expected.size, differences };
}
