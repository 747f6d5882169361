/**
 * Every configuration key Weir accepts, with Flink's names. This table is the schema: the
 * loader rejects keys not listed here and values its `type` does not accept, and `weir
 * config` style docs are generated from the `doc` lines. Durations are milliseconds in code;
 * in YAML and env they may be written as `500ms`, `10s`, `1min` or a plain number of ms.
 * Memory sizes are bytes in code, written as `64mb`, `512kb` or a plain number of bytes.
 */
export const ConfigOptions = {
  'jobmanager.rpc.address': { type: 'string', default: 'localhost', doc: 'Host the JobManager is reached at by TaskManagers and clients.' },
  'jobmanager.rpc.port': { type: 'port', default: 6123, doc: 'gRPC port of the JobManager.' },
  'jobmanager.bind-host': { type: 'string', default: '127.0.0.1', doc: "Address the JobManager's gRPC server (and its Prometheus endpoint) listens on; the loopback address by default, so nothing outside this host can submit a job. Set 0.0.0.0 (all interfaces) or the host's address to take TaskManagers and clients of other hosts, as the compose file and Kubernetes manifests do." },
  'jobmanager.job-main.timeout': { type: 'duration', default: 30_000, doc: "How long a job's main may take to build its job graph (in the job's worker process on the JobManager) before the submission fails." },
  'jobmanager.user-code.heap-size': { type: 'memory', default: 512 * 1024 ** 2, doc: "Heap limit of each job's worker process on the JobManager, where the job's main and split enumerators run; a job that exceeds it fails, the JobManager does not." },
  'jobmanager.user-code.read-paths': { type: 'string', default: '', doc: "Comma-separated directories the job's code on the JobManager (its main, its split enumerators: a FileSource lists its input there) may read, besides Weir's own code. Nothing else: not the JobManager's configuration, tokens, keys or environment. The worker process runs under Node's permission model: no file writes, child processes or worker threads. weir cluster start allows the directory it was started in." },
  'jobmanager.client.max-requests-per-minute': { type: 'int', default: 60, doc: 'Job submissions and savepoint triggers (gRPC and REST together) one client address may make per minute, as a token bucket: that many at once, then one per 60/N seconds; more are refused with RATE_LIMITED (REST 429). 0: no limit.' },
  'jobmanager.rpc.max-message-size': { type: 'memory', default: 64 * 1024 ** 2, doc: 'Largest request the JobManager accepts (a job bundle, a TaskManager message); a larger one is refused at once with RESOURCE_EXHAUSTED.' },
  'blob.storage.directory': { type: 'string', default: '.weir/blobs', doc: 'Where the JobManager keeps job bundles and TaskManagers cache them.' },
  'taskmanager.numberOfTaskSlots': { type: 'positiveInt', default: 1, doc: 'Slots a TaskManager offers; a slot runs one subtask of every vertex of a job (slot sharing).' },
  'taskmanager.host': { type: 'string', default: 'localhost', doc: 'Host other TaskManagers reach this one at for data exchange.' },
  'taskmanager.bind-host': { type: 'string', default: '127.0.0.1', doc: "Address the TaskManager's data server, liveness endpoint and Prometheus endpoint listen on; the loopback address by default. Set 0.0.0.0 or the host's address when other hosts run TaskManagers or the JobManager." },
  'taskmanager.data.port': { type: 'port', default: 0, doc: 'Data exchange port; 0 picks a free one.' },
  'taskmanager.liveness.port': { type: 'port', default: 0, doc: 'Port of the liveness endpoint the JobManager probes (HTTP, on taskmanager.bind-host); 0 picks a free one.' },
  'taskmanager.resource-id': { type: 'string', default: '', doc: 'ID of the TaskManager; empty generates one from host and port.' },
  'cluster.intercept-user-system-exit': { type: 'enum', values: ['DISABLED', 'LOG', 'THROW'], default: 'THROW', doc: "What a job's process.exit() or process.abort() does: THROW fails the task (or the job's main) with USER_SYSTEM_EXIT, LOG warns and lets the process end, DISABLED lets it end." },
  'heartbeat.interval': { type: 'duration', default: 10_000, doc: 'Time between heartbeats on the JobManager-TaskManager control stream.' },
  'heartbeat.timeout': { type: 'duration', default: 50_000, doc: 'A peer that sent no heartbeat for this long is considered lost.' },
  'heartbeat.probe-interval': { type: 'duration', default: 1_000, doc: 'Time between the JobManager\'s liveness probes of each TaskManager (answered by a thread of the TaskManager\'s own, also while its event loop is busy).' },
  'heartbeat.probe-timeout': { type: 'duration', default: 1_000, doc: 'How long a liveness probe waits for its answer; a TaskManager that leaves two in a row unanswered (stopped, or out of reach) is lost at once instead of after heartbeat.timeout.' },
  'slot.request.timeout': { type: 'duration', default: 300_000, doc: 'How long a job waits for enough free slots before it fails.' },
  'parallelism.default': { type: 'positiveInt', default: 1, doc: 'Parallelism of operators and jobs that set none.' },
  'pipeline.max-parallelism': { type: 'int', default: -1, doc: 'Default max parallelism (key groups); -1 derives it from the parallelism as Flink does.' },
  'execution.buffer-timeout': { type: 'duration', default: 100, doc: 'Flush output buffers that are not full after this long.' },
  'pipeline.auto-watermark-interval': { type: 'duration', default: 200, doc: 'Sources and timestamp assigners ask their watermark generators for a watermark this often; 0 turns periodic watermarks off.' },
  'pipeline.object-reuse': { type: 'boolean', default: false, doc: "Records between tasks of one TaskManager pass as objects, unserialized (a job's env.getConfig().enableObjectReuse() also turns it on)." },
  'execution.checkpointing.interval': { type: 'duration', default: 0, doc: 'Take a checkpoint this often; 0 leaves checkpointing to the job (env.enableCheckpointing).' },
  'execution.checkpointing.mode': { type: 'enum', values: ['EXACTLY_ONCE', 'AT_LEAST_ONCE'], default: 'EXACTLY_ONCE', doc: 'Aligned barriers (exactly-once) or a barrier tracker that never blocks (at-least-once).' },
  'execution.checkpointing.unaligned': { type: 'boolean', default: false, doc: 'Unaligned checkpoints: barriers overtake queued data, which is saved with the checkpoint (exactly-once, one concurrent checkpoint).' },
  'execution.checkpointing.aligned-checkpoint-timeout': { type: 'duration', default: 0, doc: 'With unaligned checkpoints: start aligned and switch to unaligned when alignment takes longer than this; 0 is unaligned from the start.' },
  'execution.checkpointing.timeout': { type: 'duration', default: 600_000, doc: 'A checkpoint not complete after this long is expired and discarded.' },
  'execution.checkpointing.min-pause': { type: 'duration', default: 0, doc: 'Least time from the completion of one checkpoint to the trigger of the next.' },
  'execution.checkpointing.max-concurrent-checkpoints': { type: 'positiveInt', default: 1, doc: 'Checkpoints that may be in progress at once.' },
  'execution.checkpointing.tolerable-failed-checkpoints': { type: 'int', default: 0, doc: 'Consecutive failed checkpoints tolerated before the job fails over.' },
  'execution.checkpointing.externalized-checkpoint-retention': {
    type: 'enum',
    values: ['NO_EXTERNALIZED_CHECKPOINTS', 'DELETE_ON_CANCELLATION', 'RETAIN_ON_CANCELLATION'],
    default: 'NO_EXTERNALIZED_CHECKPOINTS',
    doc: 'What happens to retained checkpoints when the job ends: deleted (NO_EXTERNALIZED), kept only on failure (DELETE_ON_CANCELLATION), kept on cancel and failure (RETAIN_ON_CANCELLATION).',
  },
  'state.backend': { type: 'enum', values: ['hashmap', 'memory', 'filesystem', 'level', 'rocksdb'], default: 'hashmap', doc: 'Where keyed state lives and how it is snapshotted: hashmap/filesystem (heap, files in state.checkpoints.dir), memory (heap, snapshots inline in _metadata), level/rocksdb (LevelDB on local disk, files in state.checkpoints.dir).' },
  'state.backend.incremental': { type: 'boolean', default: false, doc: 'LevelDB backend: upload only what no earlier checkpoint uploaded (new table files, what was appended to the log and MANIFEST), into <dir>/<jobId>/shared.' },
  'state.backend.changelog.enabled': { type: 'boolean', default: false, doc: "LevelDB backend: generic incremental (changelog) checkpoints, Flink's FLIP-158: each checkpoint uploads the state changes written since the last one, as changelog segments into <dir>/<jobId>/shared, and refers to the DB's files a periodic materialization uploaded in the background; a restore opens those and replays the segments." },
  'state.backend.changelog.periodic-materialize.interval': { type: 'duration', default: 600_000, doc: 'With state.backend.changelog.enabled: time between materializations of the DB (the incremental upload of its files), after which checkpoints no longer refer to the changelog segments it holds. Shorter: less changelog to upload again and replay on restore; longer: fewer uploads of files that compactions rewrote.' },
  'state.backend.rocksdb.writebuffer.size': { type: 'memory', default: 64 * 1024 ** 2, doc: "LevelDB backend: each DB's memtable (LevelDB's write_buffer_size; Flink's RocksDB key). A bigger one makes fewer, larger level-0 tables, so less compaction while state is filled, and a longer log to replay on open." },
  'state.backend.rocksdb.block.cache-size': { type: 'memory', default: 32 * 1024 ** 2, doc: "LevelDB backend: each DB's cache of uncompressed table blocks (LevelDB's block_cache)." },
  'state.backend.rocksdb.block.blocksize': { type: 'memory', default: 4 * 1024, doc: "LevelDB backend: the uncompressed size of a table's data blocks (LevelDB's block_size)." },
  'state.backend.rocksdb.files.open': { type: 'positiveInt', default: 1000, doc: "LevelDB backend: table files each DB keeps open (LevelDB's max_open_files); a DB with more tables opens and closes them as it reads." },
  'state.backend.rocksdb.compaction.level.target-file-size-base': { type: 'memory', default: 2 * 1024 ** 2, doc: "LevelDB backend: the size at which a compaction starts a new table file (LevelDB's max_file_size)." },
  'state.backend.rocksdb.compression.per.level': { type: 'enum', values: ['SNAPPY_COMPRESSION', 'NO_COMPRESSION'], default: 'SNAPPY_COMPRESSION', doc: 'LevelDB backend: whether table blocks are compressed with Snappy (one setting for all levels: LevelDB has no per-level compression).' },
  'state.backend.rocksdb.localdir': { type: 'string', default: '', doc: 'Where TaskManagers keep their LevelDB state (empty: the OS temp dir), each in a directory of its own, weir-<taskmanager id>-<random>, one DB per operator subtask. Several TaskManagers may share it: one that starts removes the directories of TaskManagers of this host that are gone.' },
  'state.savepoints.dir': { type: 'string', default: '', doc: 'Default savepoint directory (a local path, file:// or s3:// URL) for weir savepoint, stop and cancel -s.' },
  'state.savepoints.allowed-dirs': { type: 'string', default: '', doc: "Comma-separated directories (local paths, file:// or s3:// URLs), besides state.savepoints.dir and state.checkpoints.dir, below which clients may have savepoints written (weir savepoint, stop, cancel -s), restored (weir run -s) and disposed of (weir savepoint -d); any other path is refused with PATH_NOT_ALLOWED. weir cluster start allows its --dir's checkpoints and savepoints." },
  'state.metadata.max-size': { type: 'memory', default: 128 * 1024 ** 2, doc: "Largest _metadata file of a checkpoint or savepoint the JobManager reads; a bigger one (or a device, FIFO, or symbolic link out of its directory) is refused before it is read. State files are read up to the size _metadata records for them." },
  'state.checkpoints.dir': { type: 'string', default: '', doc: 'Checkpoint directory: a local path, file:// or s3:// URL. Each job writes below <dir>/<jobId>.' },
  'state.checkpoints.num-retained': { type: 'positiveInt', default: 1, doc: 'Completed checkpoints kept; older ones are subsumed and deleted.' },
  'restart-strategy.type': { type: 'enum', values: ['none', 'fixed-delay', 'exponential-delay', 'failure-rate', 'default'], default: 'default', doc: 'How a failed job restarts; default: exponential-delay when checkpointing is on, none otherwise (as Flink since 1.19).' },
  'restart-strategy.fixed-delay.attempts': { type: 'int', default: 1, doc: 'Restarts before the job fails for good.' },
  'restart-strategy.fixed-delay.delay': { type: 'duration', default: 1_000, doc: 'Pause before each restart.' },
  'restart-strategy.exponential-delay.initial-backoff': { type: 'duration', default: 1_000, doc: 'First restart delay.' },
  'restart-strategy.exponential-delay.max-backoff': { type: 'duration', default: 60_000, doc: 'Largest restart delay.' },
  'restart-strategy.exponential-delay.backoff-multiplier': { type: 'number', default: 1.5, doc: 'Factor the delay grows by per restart.' },
  'restart-strategy.exponential-delay.reset-backoff-threshold': { type: 'duration', default: 3_600_000, doc: 'Running this long without failure resets the delay.' },
  'restart-strategy.exponential-delay.jitter-factor': { type: 'number', default: 0.1, doc: 'Random share added to or taken from each delay.' },
  'restart-strategy.failure-rate.max-failures-per-interval': { type: 'positiveInt', default: 1, doc: 'Failures within the interval before the job fails for good.' },
  'restart-strategy.failure-rate.failure-rate-interval': { type: 'duration', default: 60_000, doc: 'Window over which failures are counted.' },
  'restart-strategy.failure-rate.delay': { type: 'duration', default: 1_000, doc: 'Pause before each restart.' },
  'high-availability.type': { type: 'enum', values: ['none', 'etcd'], default: 'none', doc: 'JobManager high availability: none (one JobManager; its jobs end with it) or etcd (leader election, job and checkpoint pointers in etcd, standbys take over).' },
  'high-availability.storageDir': { type: 'string', default: '', doc: 'With HA: where the leader keeps submitted jobs and their bundles (a local path, file:// or s3:// URL that every JobManager reaches).' },
  'high-availability.cluster-id': { type: 'string', default: 'default', doc: 'With HA: the cluster\'s name in etcd (keys below /weir/<cluster-id>/); JobManagers with the same ID and storageDir form one cluster.' },
  'high-availability.etcd.endpoints': { type: 'string', default: '', doc: 'With HA: comma-separated etcd client URLs, e.g. http://etcd-0:2379,http://etcd-1:2379.' },
  'high-availability.etcd.lease-ttl': { type: 'duration', default: 15_000, doc: 'With HA: TTL of the leader\'s etcd lease; a standby takes over this long after the leader stopped renewing it (whole seconds, at least 2s).' },
  'high-availability.etcd.renew-interval': { type: 'duration', default: 5_000, doc: 'With HA: how often the leader renews its lease; must be below the lease TTL.' },
  'high-availability.etcd.tls.ca': { type: 'string', default: '', doc: "With HA over TLS: PEM file with the CA that signed etcd's server certificate (etcd --trusted-ca-file's CA when it also checks clients); the endpoints must then be https://. Empty with https:// endpoints: the system's CAs." },
  'high-availability.etcd.tls.cert': { type: 'string', default: '', doc: "With HA over TLS: PEM file with this process's client certificate for etcd started with --client-cert-auth (weir security init's node.pem); needs high-availability.etcd.tls.key." },
  'high-availability.etcd.tls.key': { type: 'string', default: '', doc: 'With HA over TLS: PEM file with the private key of high-availability.etcd.tls.cert.' },
  // Security (@weir/security): mutual TLS inside the cluster, TLS for REST, authenticated and authorized clients.
  'security.ssl.internal.enabled': { type: 'boolean', default: false, doc: 'Mutual TLS on every connection inside the cluster: JobManager and TaskManager gRPC, TaskManager data exchange, liveness probes. Needs security.ssl.internal.cert, .key and .ca.' },
  'security.ssl.internal.cert': { type: 'string', default: '', doc: "PEM file with this process's certificate (signed by security.ssl.internal.ca), shown to servers and clients alike; re-read when it changes." },
  'security.ssl.internal.key': { type: 'string', default: '', doc: 'PEM file with the private key of security.ssl.internal.cert; re-read when it changes.' },
  'security.ssl.internal.ca': { type: 'string', default: '', doc: "PEM file with the cluster's CA certificate: peers must show a certificate it signed; clients (weir) verify the JobManager with it." },
  'security.ssl.rest.enabled': { type: 'boolean', default: false, doc: 'HTTPS for the REST API and dashboard. Needs security.ssl.rest.cert and .key.' },
  'security.ssl.rest.cert': { type: 'string', default: '', doc: "PEM file with the REST API's server certificate; re-read when it changes." },
  'security.ssl.rest.key': { type: 'string', default: '', doc: 'PEM file with the private key of security.ssl.rest.cert; re-read when it changes.' },
  'security.auth.tokens-file': { type: 'string', default: '', doc: 'File of bearer tokens, one per line: sha256:HEX ROLE NAME, HEX the SHA-256 of the token, never the token (roles: viewer, submitter, operator, admin); re-read when it changes. weir security init writes one.' },
  'security.auth.jwt.jwks': { type: 'string', default: '', doc: "JWTs are accepted when signed by a key of this JWKS: a file path (re-read when it changes) or an https:// URL (an OIDC provider's jwks_uri)." },
  'security.auth.jwt.issuer': { type: 'string', default: '', doc: 'The iss a JWT must carry (required with security.auth.jwt.jwks).' },
  'security.auth.jwt.audience': { type: 'string', default: '', doc: 'The aud a JWT must carry (required with security.auth.jwt.jwks).' },
  'security.insecure-bind-acknowledged': { type: 'boolean', default: false, doc: 'Let a JobManager, TaskManager or REST API listen on a non-loopback address without TLS and authentication (a private network); a warning is logged at every start.' },
  's3.endpoint': { type: 'string', default: '', doc: 'S3 endpoint URL (MinIO, s3rver); empty uses AWS.' },
  's3.access-key': { type: 'string', default: '', doc: 'S3 access key.' },
  's3.secret-key': { type: 'string', default: '', doc: 'S3 secret key.' },
  's3.region': { type: 'string', default: 'us-east-1', doc: 'S3 region.' },
  's3.ssl.ca': { type: 'string', default: '', doc: "PEM file with the CA that signed an https:// s3.endpoint's certificate (a private MinIO, say), trusted besides the system's CAs; read at start." },
  's3.path-style-access': { type: 'boolean', default: true, doc: 'Address buckets as endpoint/bucket (MinIO, s3rver) rather than bucket.endpoint.' },
  // Observability: the REST API and dashboard on the JobManager, metrics on every process.
  'rest.port': { type: 'port', default: 8081, doc: 'Port of the JobManager\'s REST API and web dashboard; 0 picks a free one.' },
  'rest.bind-address': { type: 'string', default: '127.0.0.1', doc: 'Address the REST API and web dashboard listen on; the loopback address by default. Set 0.0.0.0 to reach the dashboard from other hosts.' },
  'rest.server.max-content-length': { type: 'memory', default: 1024 ** 2, doc: 'Largest request body the REST API takes; a request whose Content-Length is larger is answered 413 at once, its body unread.' },
  'rest.server.request-timeout': { type: 'duration', default: 10_000, doc: "Time a REST request's headers and body have to arrive, and a connection may stay idle; past it the connection is closed, so slow clients cannot hold connections open." },
  'rest.server.max-connections': { type: 'positiveInt', default: 256, doc: 'Open connections the REST API and dashboard accept at once; more are closed as they come.' },
  'rest.address': { type: 'string', default: '', doc: "Host the JobManager's REST API is reached at, published in etcd when it leads so standbys forward REST requests there; empty: jobmanager.rpc.address." },
  'web.refresh-interval': { type: 'duration', default: 1_000, doc: 'How often the web dashboard asks the REST API for fresh figures.' },
  'metrics.reporter.prom.port': { type: 'portRange', default: '', doc: 'Serve /metrics in the Prometheus text format on this port, or on the first free one of a range such as 9249-9260; empty: no Prometheus endpoint.' },
  'metrics.reporter.prom.ssl.enabled': { type: 'boolean', default: false, doc: "Serve /metrics over HTTPS only, with the REST API's certificate (security.ssl.rest.cert and .key, re-read when they change), so the token a scrape shows with authentication on is not sent in clear." },
  'metrics.fetcher.update-interval': { type: 'duration', default: 1_000, doc: 'How often TaskManagers send their task metrics to the JobManager (REST API, dashboard); 0 sends none.' },
} as const satisfies Record<string, ConfigOption>;

export type ConfigType = 'string' | 'port' | 'portRange' | 'int' | 'positiveInt' | 'duration' | 'memory' | 'number' | 'boolean' | 'enum';

export interface ConfigOption {
  readonly type: ConfigType;
  /** The accepted values of an `enum` key. */
  readonly values?: readonly string[];
  readonly default: string | number | boolean;
  readonly doc: string;
}

export type ConfigKey = keyof typeof ConfigOptions;

type ValueOf<O> = O extends { readonly type: 'enum'; readonly values: readonly (infer V)[] }
  ? V
  : O extends { readonly type: 'string' | 'portRange' }
    ? string
    : O extends { readonly type: 'boolean' }
      ? boolean
      : number;

/** A validated configuration: every key present, with its default when not set. */
export type WeirConfig = { readonly [K in ConfigKey]: ValueOf<(typeof ConfigOptions)[K]> };

export function defaultConfig(): WeirConfig {
  const config: Record<string, string | number | boolean> = {};
  for (const [key, option] of Object.entries(ConfigOptions)) config[key] = option.default;
  return config as WeirConfig;
}
