import type { ExclusiveResource, JobGraph } from '@weir/api';
import type { InitialRestore } from '../checkpoint/restore-point.ts';
import type { JobSettings } from '../settings/job-settings.ts';
import type { SplitSourceOperator } from '../source/source-coordinators.ts';

/** The defaults a job's graph was built with; every task rebuilds its graph with the same. */
export interface JobDefaults {
  readonly parallelism: number;
  /** -1 derives it from the parallelism. */
  readonly maxParallelism: number;
  readonly bufferTimeoutMs: number;
  /** pipeline.auto-watermark-interval; unset: the API's default (200 ms). */
  readonly autoWatermarkIntervalMs?: number;
  /** pipeline.object-reuse. */
  readonly objectReuse: boolean;
}

/** Everything fixed about a job once it is submitted. */
export interface JobSpec {
  /** 32 random hex chars. */
  readonly jobId: string;
  readonly jobGraph: JobGraph;
  /** SHA-256 (hex) of the bundle in the blob store. */
  readonly bundleHash: string;
  readonly entryName: string;
  readonly args: readonly string[];
  readonly defaults: JobDefaults;
  /** Checkpointing and restart strategy, resolved at submission. */
  readonly settings: JobSettings;
  /** `weir run -D`: the configuration keys the job was submitted with (already in `defaults` and `settings`). */
  readonly configuration: Readonly<Record<string, string>>;
  /** Set when the job was submitted with a savepoint path; until its first checkpoint completes, every attempt starts from it. */
  readonly initialRestore?: InitialRestore;
  /** The job's split sources (FLIP-27), whose enumerators run in the job's worker. */
  readonly splitSources?: readonly SplitSourceOperator[];
  /** What the job's sinks claim for it alone while it runs (see Sink.exclusiveResources). */
  readonly exclusiveResources?: readonly ExclusiveResource[];
  /** Who submitted the job (principalId); '' or absent when not known: then only operators and admins control it. */
  readonly owner?: string;
}

/** Slots the job needs with slot sharing: its highest vertex parallelism. */
export function requiredSlots(jobGraph: JobGraph): number {
  return Math.max(0, ...jobGraph.vertices.map((v) => v.parallelism));
}
