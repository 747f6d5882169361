import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What CollectSink `name` committed under `root`: every checkpoint's records, in checkpoint
 * order per subtask, then each subtask's end-of-input records of its newest attempt (an older
 * attempt's were replayed by the newer one). Subtasks in index order.
 */
export function readCollected<T>(root: string, name: string): T[] {
  const dir = join(root, name);
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  const bySubtask = new Map<number, { checkpoints: string[]; end: string | undefined }>();
  for (const file of files) {
    const match = /^(\d+)-(chk|end)-\d+\.json$/.exec(file);
    if (match === null) continue;
    const subtask = Number(match[1]);
    const entry = bySubtask.get(subtask) ?? { checkpoints: [], end: undefined };
    if (match[2] === 'chk') entry.checkpoints.push(file);
    else entry.end = file; // sorted: the last one is the newest attempt's
    bySubtask.set(subtask, entry);
  }
  const out: T[] = [];
  for (const subtask of [...bySubtask.keys()].sort((a, b) => a - b)) {
    const { checkpoints, end } = bySubtask.get(subtask)!;
    for (const file of [...checkpoints, ...(end === undefined ? [] : [end])]) out.push(...(JSON.parse(readFileSync(join(dir, file), 'utf8')) as T[]));
  }
  return out;
}
