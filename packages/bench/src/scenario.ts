/** One benchmark: runs, then returns named figures (numbers) and a line per figure for the table. */
export interface Scenario {
  readonly name: string;
  readonly description: string;
  run(options: ScenarioOptions): Promise<ScenarioResult>;
}

export interface ScenarioOptions {
  /** Write CPU profiles of the TaskManagers into this directory. */
  readonly profileDir?: string;
  /** How many events a scenario that takes it (nexmark) runs, instead of its own count. */
  readonly events?: number;
  /** The queries a scenario that has several (nexmark) runs, instead of all of them. */
  readonly queries?: readonly string[];
  /** A scenario that takes it (shuffle) compares mutual TLS inside the cluster with plain connections instead. */
  readonly tls?: boolean;
  /** How many records a scenario that takes it (kafka) moves, instead of its own count. */
  readonly records?: number;
  /** The delivery guarantees a scenario that has several (kafka) runs, instead of all of them. */
  readonly guarantees?: readonly string[];
}

export interface ScenarioResult {
  readonly figures: Readonly<Record<string, number>>;
  /** [label, value, unit] rows for the printed table. */
  readonly rows: ReadonlyArray<readonly [string, string, string]>;
}
