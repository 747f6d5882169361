/**
 * Input record i of the Kafka running-sums example: key k = i mod 8 in partition k mod 4;
 * from `cutover` on (once partitions 4 and 5 exist) every fifth record goes instead to key k8
 * or k9 in partition 4 or 5, so those partitions hold data only partition discovery delivers.
 */
export function kafkaInputRecord(i: number, cutover = Number.POSITIVE_INFINITY): { key: string; value: string; partition: number } {
  if (i >= cutover && i % 5 === 0) {
    const extra = (i / 5) % 2;
    return { key: `k${8 + extra}`, value: `k${8 + extra} ${i}`, partition: 4 + extra };
  }
  const k = i % 8;
  return { key: `k${k}`, value: `k${k} ${i}`, partition: k % 4 };
}

/** Every output line of the Kafka running-sums example for inputs 0 .. records-1, sorted. */
export function expectedKafkaSums(records: number, cutover = Number.POSITIVE_INFINITY): string[] {
  const sums = new Map<string, number>();
  const lines: string[] = [];
  for (let i = 0; i < records; i++) {
    const { key } = kafkaInputRecord(i, cutover);
    const sum = (sums.get(key) ?? 0) + i;
    sums.set(key, sum);
    lines.push(`${key} ${i} ${sum}`);
  }
  return lines.sort();
}
