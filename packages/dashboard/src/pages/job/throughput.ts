import type { JobDetails } from '../../api.ts';

/** How many polls of records/s the throughput chart keeps (10 minutes at the default 1 s refresh). */
const MAX_SAMPLES = 600;

export interface ThroughputHistory {
  readonly times: number[];
  /** Per vertex ID, records/s at each time: what it wrote, or for a sink what it read. */
  readonly rates: Map<string, (number | null)[]>;
}

export function emptyHistory(): ThroughputHistory {
  return { times: [], rates: new Map() };
}

/** Appends one poll's records/s per vertex; a poll that repeats the last one's time is skipped. */
export function addSample(history: ThroughputHistory, job: JobDetails): void {
  if (history.times.at(-1) === job.now) return;
  history.times.push(job.now);
  for (const vertex of job.vertices) {
    let series = history.rates.get(vertex.id);
    if (series === undefined) {
      series = new Array<number | null>(history.times.length - 1).fill(null);
      history.rates.set(vertex.id, series);
    }
    const out = vertex.metrics['write-records-per-second'];
    series.push(out > 0 ? out : vertex.metrics['read-records-per-second']);
  }
  if (history.times.length > MAX_SAMPLES) {
    history.times.shift();
    for (const series of history.rates.values()) series.shift();
  }
}
