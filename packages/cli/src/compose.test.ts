import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@weir/common';
import { haSettingsFromConfig } from '@weir/ha';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseArgv } from './testing/parse-argv.ts';

const repoFile = (path: string): string => readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), 'utf8');

interface Service {
  command?: string | string[];
  depends_on?: string[] | Record<string, { condition: string }>;
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: string[];
  restart?: string;
  container_name?: string;
}

const compose = parse(repoFile('docker-compose.yml'), { merge: true }) as { services: Record<string, Service & { volumes?: string[] }> };

function commandOf(service: Service): string[] {
  if (service.command === undefined) return [];
  return Array.isArray(service.command) ? service.command : service.command.split(/\s+/);
}

function environmentOf(service: Service): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) return Object.fromEntries(env.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
  return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value === null ? '' : String(value)]));
}

const weirServices = Object.entries(compose.services).filter(([, service]) => commandOf(service)[0] === 'weir');

describe('docker-compose.yml', () => {
  it('runs two JobManagers and a taskmanager service with weir', () => {
    expect(weirServices.map(([name]) => name).sort()).toEqual(['jobmanager-1', 'jobmanager-2', 'taskmanager']);
  });

  it.each(weirServices)('%s runs a command the CLI accepts', (name, service) => {
    const parsed = parseArgv(commandOf(service).slice(1));
    expect(parsed.error).toBeUndefined();
    expect(parsed.calls.map(([action]) => action)).toEqual([name.replace(/-\d+$/, '')]);
  });

  it.each(weirServices)('%s sets only known config keys, with valid values, and HA on the etcd service', (name, service) => {
    const [[, args]] = parseArgv(commandOf(service).slice(1)).calls as [[string, { dynamic: Record<string, string> }]];
    // The image's entrypoint adds the container's address.
    const env = { ...environmentOf(service), WEIR_TASKMANAGER_HOST: '172.18.0.5' };
    const config = loadConfig({ env, dynamic: args.dynamic });
    const ha = haSettingsFromConfig(config, name === 'taskmanager' ? 'client' : 'jobmanager');
    expect(ha?.endpoints).toEqual(['http://etcd:2379']);
    expect(compose.services.etcd).toBeDefined();
    expect(config['jobmanager.rpc.port']).toBe(6123);
    // Weir binds the loopback address by default: in a container the others could not reach it.
    expect([config['jobmanager.bind-host'], config['taskmanager.bind-host'], config['rest.bind-address']]).toEqual(['0.0.0.0', '0.0.0.0', '0.0.0.0']);
    // A JobManager publishes its rpc address in etcd when it leads: its own service name.
    if (name !== 'taskmanager') expect(config['jobmanager.rpc.address']).toBe(name);
  });

  it.each(['jobmanager-1', 'jobmanager-2'])('%s publishes the port it configures and restarts after a crash', (name) => {
    const jobManager = compose.services[name]!;
    expect(jobManager.ports?.some((p) => p.endsWith(`:${environmentOf(jobManager).WEIR_JOBMANAGER_RPC_PORT}`))).toBe(true);
    expect(jobManager.restart).toBe('on-failure');
  });

  it.each(['jobmanager-1', 'jobmanager-2'])('%s publishes the dashboard and the metrics port it configures', (name) => {
    const jobManager = compose.services[name]!;
    const config = loadConfig({ env: environmentOf(jobManager) });
    expect(config['rest.bind-address']).toBe('0.0.0.0');
    expect(jobManager.ports?.some((p) => p.endsWith(`:${config['rest.port']}`))).toBe(true);
    expect(jobManager.ports?.some((p) => p.endsWith(`:${config['metrics.reporter.prom.port']}`))).toBe(true);
  });

  it('runs Prometheus scraping both JobManagers and every TaskManager on the port they serve metrics on', () => {
    const prometheus = compose.services.prometheus!;
    const [mount] = prometheus.volumes!;
    expect(mount).toMatch(/^\.\/deploy\/prometheus\.yml:/);
    const scrape = parse(repoFile('deploy/prometheus.yml')) as {
      scrape_configs: { job_name: string; static_configs?: { targets: string[] }[]; dns_sd_configs?: { names: string[]; port: number }[] }[];
    };
    const port = (service: string) => loadConfig({ env: { ...environmentOf(compose.services[service]!), WEIR_TASKMANAGER_HOST: '172.18.0.5' } })['metrics.reporter.prom.port'];
    const jobs = Object.fromEntries(scrape.scrape_configs.map((job) => [job.job_name, job]));
    expect(jobs['weir-jobmanager']!.static_configs![0]!.targets).toEqual([`jobmanager-1:${port('jobmanager-1')}`, `jobmanager-2:${port('jobmanager-2')}`]);
    expect(jobs['weir-taskmanager']!.dns_sd_configs![0]).toMatchObject({ names: ['taskmanager'], port: Number(port('taskmanager')) });
  });

  it('lets taskmanager scale and come back after a crash', () => {
    const taskManager = compose.services.taskmanager!;
    expect(taskManager.container_name).toBeUndefined();
    expect(taskManager.ports).toBeUndefined();
    expect(taskManager.restart).toBe('on-failure');
  });

  it('starts Weir once etcd runs and the bucket exists; TaskManagers wait for a leader in etcd, not for one JobManager', () => {
    const ready = { etcd: { condition: 'service_started' }, 'minio-init': { condition: 'service_completed_successfully' } };
    for (const name of ['jobmanager-1', 'jobmanager-2', 'taskmanager']) expect(compose.services[name]!.depends_on, name).toEqual(ready);
  });

  it('runs the Kafka version the tests run, in KRaft mode, reachable inside compose and from the host, its data on a volume', () => {
    const kafka = compose.services.kafka!;
    const version = /<artifactId>kafka_2\.13<\/artifactId>\s*<version>([^<]+)<\/version>/.exec(repoFile('packages/kafka-broker/maven/pom.xml'))![1];
    expect((kafka as { image?: string }).image).toBe(`apache/kafka:${version}`);
    const env = environmentOf(kafka);
    expect(env['KAFKA_PROCESS_ROLES']).toBe('broker,controller');
    expect(env['KAFKA_CONTROLLER_QUORUM_VOTERS']).toBe(`${env['KAFKA_NODE_ID']}@kafka:9093`);
    const listeners = (value: string) => Object.fromEntries(value.split(',').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.lastIndexOf(':') + 1)]));
    expect(listeners(env['KAFKA_LISTENERS']!)).toEqual({ PLAINTEXT: '9092', CONTROLLER: '9093', EXTERNAL: '9094' });
    // The host port may move (HOST_PORT_KAFKA, as the Docker test sets it): the advertised address follows it.
    expect(env['KAFKA_ADVERTISED_LISTENERS']).toBe('PLAINTEXT://kafka:9092,EXTERNAL://localhost:${HOST_PORT_KAFKA:-9094}');
    expect(kafka.ports).toEqual(['${HOST_PORT_KAFKA:-9094}:9094']);
    // One broker: the internal topics exactly-once needs (transactions, offsets) cannot ask for 3 replicas.
    expect([env['KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR'], env['KAFKA_TRANSACTION_STATE_LOG_MIN_ISR'], env['KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR']]).toEqual(['1', '1', '1']);
    expect(kafka.volumes).toEqual([`kafka:${env['KAFKA_LOG_DIRS']}`]);
    expect(env['KAFKA_LOG_DIRS']).toBe('/var/lib/kafka/data');
    expect(Object.keys((compose as unknown as { volumes: Record<string, unknown> }).volumes)).toContain('kafka');
  });

  it('runs PostgreSQL 15 (the version the tests run) with logical WAL and prepared transactions, its data on a volume', () => {
    const postgres = compose.services.postgres!;
    expect((postgres as { image?: string }).image).toBe('postgres:15');
    const command = commandOf(postgres).join(' ');
    expect(command).toContain('wal_level=logical');
    expect(Number(/max_prepared_transactions=(\d+)/.exec(command)?.[1])).toBeGreaterThan(0);
    expect(postgres.ports).toEqual(['${HOST_PORT_POSTGRES:-5433}:5432']);
    expect(postgres.volumes).toEqual(['postgres:/var/lib/postgresql/data']);
    expect(Object.keys((compose as unknown as { volumes: Record<string, unknown> }).volumes)).toContain('postgres');
  });

  it("counts a standby's NOT_LEADER answer as healthy", () => {
    expect(repoFile('deploy/healthcheck.mjs')).toContain("includes('is a standby')");
  });

  it('builds an image that runs as a non-root user, exposes its ports and checks its health', () => {
    const dockerfile = repoFile('deploy/Dockerfile');
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^EXPOSE 6123 6121 8081 9249$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .* CMD \["weir-healthcheck"\]$/m);
    expect(dockerfile).toContain('install -m 0755 /opt/weir/deploy/healthcheck.mjs /usr/local/bin/weir-healthcheck');
  });

  it('keeps its ignore file where every builder reads it: .dockerignore at the context root', () => {
    expect(repoFile('.dockerignore').split('\n')).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', '.git']));
    expect(() => repoFile('deploy/Dockerfile.dockerignore')).toThrow(/ENOENT/);
  });

  it('has the entrypoint set taskmanager.host, since compose cannot', () => {
    expect(repoFile('deploy/entrypoint.sh')).toContain('export WEIR_TASKMANAGER_HOST');
  });

  it('builds the image with the pnpm of package.json and the frozen lockfile', () => {
    const dockerfile = repoFile('deploy/Dockerfile');
    const packageManager = (JSON.parse(repoFile('package.json')) as { packageManager: string }).packageManager;
    expect(dockerfile).toContain(`npm install -g ${packageManager}`);
    expect(dockerfile).toContain('pnpm install --frozen-lockfile');
  });
});
