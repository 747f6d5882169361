import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Admin } from '@platformatic/kafka';
import { freePort, WeirError } from '@weir/common';
import { javaAvailable, kafkaClasspath } from './classpath.ts';
import { KafkaBrokerErrorCode } from './errors.ts';
import { createTopic } from './topic-io.ts';

export interface KafkaBrokerOptions {
  /** Where the broker keeps its log segments and metadata; default a fresh temp directory, removed by `destroy()`. */
  readonly dataDir?: string;
  /** Broker properties added to (or replacing) the defaults below. */
  readonly properties?: Readonly<Record<string, string | number | boolean>>;
  /** How long start-up may take; default 90 s (a cold JVM on a busy 2-core machine). */
  readonly startTimeoutMs?: number;
}

/**
 * Single-node defaults: one replica for the internal topics, no topic auto-creation (so a
 * missing topic is an error, as it is on a production cluster), no rebalance delay, and
 * quick cleanup of timed-out transactions so tests of them need not wait a minute.
 */
const DEFAULT_PROPERTIES: Readonly<Record<string, string | number | boolean>> = {
  'offsets.topic.replication.factor': 1,
  'offsets.topic.num.partitions': 4,
  'transaction.state.log.replication.factor': 1,
  'transaction.state.log.min.isr': 1,
  'transaction.state.log.num.partitions': 4,
  'group.initial.rebalance.delay.ms': 0,
  'auto.create.topics.enable': false,
  'num.partitions': 1,
  'transaction.abort.timed.out.transaction.cleanup.interval.ms': 2000,
  'log.segment.bytes': 64 * 1024 * 1024,
};

const JVM_OPTIONS = ['-Xms128m', '-Xmx1g', '-XX:+UseG1GC', '-XX:MaxGCPauseMillis=20', '-XX:+ExitOnOutOfMemoryError', '-Djava.awt.headless=true'];

const live = new Set<ChildProcess>();
// A test runner that exits with a broker still running must not leave a JVM behind.
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/**
 * An Apache Kafka broker in KRaft mode (broker and controller in one JVM, no ZooKeeper) on
 * 127.0.0.1, on free ports, for tests, the demo and benchmarks. Start, stop, SIGKILL and
 * restart on the same ports and data directory; create topics and add partitions.
 */
export class KafkaBroker {
  #process: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();

  private constructor(
    readonly port: number,
    readonly controllerPort: number,
    readonly dataDir: string,
    private readonly ownsDataDir: boolean,
    private readonly classpath: string,
    private readonly startTimeoutMs: number,
  ) {}

  /** Starts a broker; resolves once it answers metadata requests. */
  static async start(options: KafkaBrokerOptions = {}): Promise<KafkaBroker> {
    if (!javaAvailable()) {
      throw new WeirError(KafkaBrokerErrorCode.NO_JAVA, 'the Kafka broker needs a JDK 17 or newer: no `java` on the PATH');
    }
    const classpath = kafkaClasspath();
    const ownsDataDir = options.dataDir === undefined;
    const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'weir-kafka-'));
    const broker = new KafkaBroker(await freePort(), await freePort(), dataDir, ownsDataDir, classpath, options.startTimeoutMs ?? 90_000);
    broker.#writeConfig(options.properties ?? {});
    broker.#format();
    await broker.#launch();
    return broker;
  }

  /** `127.0.0.1:<port>`: what KafkaSource/KafkaSink take as bootstrap servers. */
  get bootstrapServers(): string {
    return `127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.#process?.pid;
  }

  get running(): boolean {
    return this.#process !== undefined;
  }

  /** A controlled shutdown (SIGTERM), waiting for the JVM to exit. */
  async stop(): Promise<void> {
    await this.#signal('SIGTERM');
  }

  /** SIGKILL, as a crashed broker: nothing is flushed or handed over. */
  async kill(): Promise<void> {
    await this.#signal('SIGKILL');
  }

  /** Starts the broker again on the same ports and data directory (stopping it first if it runs). */
  async restart(): Promise<void> {
    await this.stop();
    await this.#launch();
  }

  /** Kills the broker and deletes its data directory if `start` made it. */
  async destroy(): Promise<void> {
    await this.kill();
    if (this.ownsDataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** A topic with `partitions` partitions, replication factor 1; extra topic configs by name. */
  async createTopic(name: string, partitions: number, configs: Record<string, string> = {}): Promise<void> {
    await createTopic(this.bootstrapServers, name, partitions, configs);
  }

  /** Grows `topic` to `total` partitions. */
  async addPartitions(topic: string, total: number): Promise<void> {
    await this.#withAdmin((admin) => admin.createPartitions({ topics: [{ name: topic, count: total }] }));
  }

  async #withAdmin<T>(use: (admin: Admin) => Promise<T>): Promise<T> {
    const admin = new Admin({ clientId: 'weir-kafka-broker', bootstrapBrokers: [this.bootstrapServers], retries: 5, retryDelay: 200 });
    try {
      return await use(admin);
    } finally {
      await admin.close();
    }
  }

  get #configFile(): string {
    return join(this.dataDir, 'server.properties');
  }

  get #logFile(): string {
    return join(this.dataDir, 'broker.out');
  }

  #writeConfig(extra: Readonly<Record<string, string | number | boolean>>): void {
    const properties = {
      'process.roles': 'broker,controller',
      'node.id': 1,
      'controller.quorum.bootstrap.servers': `127.0.0.1:${this.controllerPort}`,
      listeners: `PLAINTEXT://127.0.0.1:${this.port},CONTROLLER://127.0.0.1:${this.controllerPort}`,
      'advertised.listeners': `PLAINTEXT://127.0.0.1:${this.port}`,
      'controller.listener.names': 'CONTROLLER',
      'listener.security.protocol.map': 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      'log.dirs': join(this.dataDir, 'logs'),
      ...DEFAULT_PROPERTIES,
      ...extra,
    };
    mkdirSync(this.dataDir, { recursive: true });
    writeFileSync(this.#configFile, Object.entries(properties).map(([k, v]) => `${k}=${String(v)}`).join('\n') + '\n');
  }

  /** `kafka-storage format --standalone`: a new single-voter KRaft cluster in the data directory. */
  #format(): void {
    // As Kafka's own Uuid.randomUuid: base64url of 16 random bytes, never starting with '-' (the tool would read it as an option).
    let clusterId = randomBytes(16).toString('base64url');
    while (clusterId.startsWith('-')) clusterId = randomBytes(16).toString('base64url');
    const format = spawnSync(
      'java',
      ['-cp', this.classpath, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', this.#configFile, '--standalone'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    if (format.status !== 0) {
      throw new WeirError(KafkaBrokerErrorCode.BROKER_START_FAILED, `formatting the Kafka data directory ${this.dataDir} failed: ${format.stderr || format.stdout}`);
    }
  }

  async #launch(): Promise<void> {
    const log = openSync(this.#logFile, 'a');
    const child = spawn('java', [...JVM_OPTIONS, '-cp', this.classpath, 'kafka.Kafka', this.#configFile], {
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    this.#process = child;
    live.add(child);
    let exitCode: number | null | undefined;
    this.#exited = new Promise((resolve) =>
      child.once('exit', (code) => {
        exitCode = code;
        live.delete(child);
        if (this.#process === child) this.#process = undefined;
        resolve();
      }),
    );
    const deadline = Date.now() + this.startTimeoutMs;
    for (;;) {
      if (exitCode !== undefined) {
        throw new WeirError(KafkaBrokerErrorCode.BROKER_START_FAILED, `the Kafka broker exited with ${exitCode} during start-up; its output:\n${this.#tail()}`);
      }
      if (await this.#answers()) return;
      if (Date.now() > deadline) {
        await this.kill();
        throw new WeirError(KafkaBrokerErrorCode.BROKER_START_FAILED, `the Kafka broker did not answer on ${this.bootstrapServers} within ${this.startTimeoutMs} ms; its output:\n${this.#tail()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async #answers(): Promise<boolean> {
    const admin = new Admin({ clientId: 'weir-kafka-probe', bootstrapBrokers: [this.bootstrapServers], retries: 0, connectTimeout: 1000 });
    try {
      const metadata = await admin.metadata({ topics: [] });
      return metadata.brokers.size > 0;
    } catch {
      return false;
    } finally {
      await admin.close().catch(() => {});
    }
  }

  async #signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.#process;
    if (child === undefined) return;
    child.kill(signal);
    await this.#exited;
  }

  #tail(): string {
    try {
      return readFileSync(this.#logFile, 'utf8').split('\n').slice(-30).join('\n');
    } catch {
      return '(no output)';
    }
  }
}
