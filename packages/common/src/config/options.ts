/**
 * Every configuration key Weir accepts, with Flink's names. This table is the schema: the
 * loader rejects keys not listed here and values its `type` does not accept, and `weir
 * config` style docs are generated from the `doc` lines. Durations are milliseconds in code;
 * in YAML and env they may be written as `500ms`, `10s`, `1min` or a plain number of ms.
 */
export const ConfigOptions = {
  'jobmanager.rpc.address': { type: 'string', default: 'localhost', doc: 'Host the JobManager is reached at by TaskManagers and clients.' },
  'jobmanager.rpc.port': { type: 'port', default: 6123, doc: 'gRPC port of the JobManager.' },
  'jobmanager.bind-host': { type: 'string', default: '0.0.0.0', doc: 'Address the JobManager listens on.' },
  'blob.storage.directory': { type: 'string', default: '.weir/blobs', doc: 'Where the JobManager keeps job bundles and TaskManagers cache them.' },
  'taskmanager.numberOfTaskSlots': { type: 'positiveInt', default: 1, doc: 'Slots a TaskManager offers; a slot runs one subtask of every vertex of a job (slot sharing).' },
  'taskmanager.host': { type: 'string', default: 'localhost', doc: 'Host other TaskManagers reach this one at for data exchange.' },
  'taskmanager.bind-host': { type: 'string', default: '0.0.0.0', doc: 'Address the TaskManager data server listens on.' },
  'taskmanager.data.port': { type: 'port', default: 0, doc: 'Data exchange port; 0 picks a free one.' },
  'taskmanager.resource-id': { type: 'string', default: '', doc: 'ID of the TaskManager; empty generates one from host and port.' },
  'heartbeat.interval': { type: 'duration', default: 10_000, doc: 'Time between heartbeats on the JobManager-TaskManager control stream.' },
  'heartbeat.timeout': { type: 'duration', default: 50_000, doc: 'A peer that sent no heartbeat for this long is considered lost.' },
  'slot.request.timeout': { type: 'duration', default: 300_000, doc: 'How long a job waits for enough free slots before it fails.' },
  'parallelism.default': { type: 'positiveInt', default: 1, doc: 'Parallelism of operators and jobs that set none.' },
  'pipeline.max-parallelism': { type: 'int', default: -1, doc: 'Default max parallelism (key groups); -1 derives it from the parallelism as Flink does.' },
  'execution.buffer-timeout': { type: 'duration', default: 100, doc: 'Flush output buffers that are not full after this long.' },
} as const satisfies Record<string, ConfigOption>;

export type ConfigType = 'string' | 'port' | 'int' | 'positiveInt' | 'duration';

export interface ConfigOption {
  readonly type: ConfigType;
  readonly default: string | number;
  readonly doc: string;
}

export type ConfigKey = keyof typeof ConfigOptions;

type ValueOf<T extends ConfigType> = T extends 'string' ? string : number;

/** A validated configuration: every key present, with its default when not set. */
export type WeirConfig = { readonly [K in ConfigKey]: ValueOf<(typeof ConfigOptions)[K]['type']> };

export function defaultConfig(): WeirConfig {
  const config: Record<string, string | number> = {};
  for (const [key, option] of Object.entries(ConfigOptions)) config[key] = option.default;
  return config as WeirConfig;
}
