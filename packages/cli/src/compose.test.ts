import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@weir/common';
import { haSettingsFromConfig } from '@weir/ha';
import { initClusterSecurity, securitySettingsFromConfig } from '@weir/security';
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

const compose = parse(repoFile('docker-compose.yml'), { merge: true }) as { services: Record<string, Service & { volumes?: string[]; user?: string }>; networks?: { default?: { name?: string } } };

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
    expect(ha?.endpoints).toEqual(['https://etcd:2379']);
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

  it('starts Weir once the secrets are made, etcd runs and the bucket exists; TaskManagers wait for a leader in etcd, not for one JobManager', () => {
    const ready = { 'weir-init': { condition: 'service_completed_successfully' }, etcd: { condition: 'service_started' }, 'minio-init': { condition: 'service_completed_successfully' } };
    for (const name of ['jobmanager-1', 'jobmanager-2', 'taskmanager']) expect(compose.services[name]!.depends_on, name).toEqual(ready);
    expect(compose.services.etcd!.depends_on).toEqual({ 'weir-init': { condition: 'service_completed_successfully' } });
  });

  describe('secured (issue 28)', () => {
    /** Where a service sees a named volume: mount path by volume name. */
    const mounts = (service: string) => new Map((compose.services[service]!.volumes ?? []).map((v) => v.split(':')).map(([volume, path]) => [volume!, path!]));
    const init = compose.services['weir-init']!;
    const script = repoFile('deploy/security-init.sh');
    /** The file weir-init leaves at a path (the volume it writes to, as the other service mounts it). */
    const initPath = (service: string, path: string): string | undefined => {
      for (const [volume, at] of mounts(service)) if (path.startsWith(`${at}/`)) return posix.join(mounts('weir-init').get(volume) ?? '/nowhere', path.slice(at.length + 1));
      return undefined;
    };

    it.each(weirServices)('%s turns on mutual TLS, HTTPS and tokens without the insecure-bind acknowledgement', (name, service) => {
      const env = environmentOf(service);
      expect(env).not.toHaveProperty('WEIR_SECURITY_INSECURE_BIND_ACKNOWLEDGED');
      const settings = securitySettingsFromConfig(loadConfig({ env: { ...env, WEIR_TASKMANAGER_HOST: 'a.weir.internal' } }));
      expect(settings.insecureBindAcknowledged).toBe(false);
      expect([settings.internalTls, settings.restTls, settings.tokensFile].every((v) => v !== undefined), name).toBe(true);
    });

    it('runs weir-init, whose `weir security init` names cover what every process is reached at, and whose files are those the services name', async () => {
      expect(commandOf(init)).toEqual(['sh', '/opt/weir/deploy/security-init.sh']);
      const domain = /\$\{NETWORK_DOMAIN:-([^}]+)\}/.exec(String(environmentOf(init).NETWORK_DOMAIN))![1]!;
      // The network is named after the domain the TaskManagers append to their container ID (deploy/entrypoint.sh).
      expect(compose.networks?.default?.name).toBe(environmentOf(init).NETWORK_DOMAIN);
      expect(environmentOf(compose.services.taskmanager!).TASKMANAGER_HOST_DOMAIN).toBe(environmentOf(init).NETWORK_DOMAIN);
      const args = /weir security init "\$dir" \\\n([\s\S]*?)\n\n/.exec(script)![1]!.replaceAll('$domain', domain);
      const option = (flag: string) => [...args.matchAll(new RegExp(`${flag} "?([^" \\n]+)"?`, 'g'))].map((m) => m[1]!);
      const dir = mkdtempSync(join(tmpdir(), 'weir-compose-secrets-'));
      try {
        await initClusterSecurity(dir, { hosts: option('--host'), ips: option('--ip') });
        const node = new X509Certificate(readFileSync(join(dir, 'node.pem')));
        const rest = new X509Certificate(readFileSync(join(dir, 'rest.pem')));
        for (const name of ['jobmanager-1', 'jobmanager-2', `0123456789ab.${domain}`, 'localhost']) expect(node.checkHost(name), name).toBeDefined();
        for (const name of ['jobmanager-1', 'jobmanager-2', 'localhost']) expect(rest.checkHost(name), name).toBeDefined();
        expect(node.checkIP('127.0.0.1')).toBeDefined();
        expect(new X509Certificate(readFileSync(join(dir, 'etcd.pem'))).checkHost('etcd')).toBeDefined();
        const written = new Set(readdirSync(dir));
        // What the Weir services' configuration names is in the security volume, which weir-init keeps those files in.
        for (const [name, service] of weirServices) {
          const env = environmentOf(service);
          const files = Object.entries(env).filter(([key, value]) => /^WEIR_(SECURITY|HIGH_AVAILABILITY_ETCD_TLS)_/.test(key) && value.startsWith('/'));
          expect(files.length, name).toBe(9);
          for (const [key, path] of files) {
            expect(initPath(name, path), `${name} ${key}`).toBe(path);
            expect(written, `${name} ${key}`).toContain(posix.basename(path));
            // weir-init moves these out of the volume Weir mounts.
            expect(['ca-key.pem', 'etcd.pem', 'etcd-key.pem']).not.toContain(posix.basename(path));
          }
          expect(service.volumes).toContain('security:/etc/weir/security:ro');
        }
        // etcd's own files, in the volume only it (and weir-init) mounts.
        const flags = Object.fromEntries(commandOf(compose.services.etcd!).filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=') as [string, string]));
        for (const flag of ['cert-file', 'key-file', 'trusted-ca-file']) {
          expect(initPath('etcd', flags[flag]!), flag).toBeDefined();
          expect(written).toContain(posix.basename(flags[flag]!));
          expect(script).toContain(posix.basename(flags[flag]!));
        }
        expect(Object.keys(flags)).toContain('client-cert-auth');
        expect(flags['listen-client-urls']).toMatch(/^https:/);
        expect(script).toMatch(/mv "\$dir\/ca-key\.pem" \/etc\/weir\/ca\//);
        expect(mounts('weir-init').get('weir-ca')).toBe('/etc/weir/ca');
        for (const [name] of Object.entries(compose.services).filter(([n]) => n !== 'weir-init')) expect(mounts(name).has('weir-ca'), name).toBe(false);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('has Prometheus scrape with the viewer token weir-init writes', () => {
      const scrape = parse(repoFile('deploy/prometheus.yml')) as { scrape_configs: { authorization?: { credentials_file: string } }[] };
      for (const job of scrape.scrape_configs) {
        const file = job.authorization?.credentials_file;
        expect(file).toBeDefined();
        expect(initPath('prometheus', file!)).toBe('/etc/prometheus/weir/token');
      }
      expect(script).toContain('viewer prometheus');
      expect(script).toContain('>/etc/prometheus/weir/token');
    });
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

  it("counts a standby's NOT_LEADER answer, and the refusal of a call without a token, as healthy", () => {
    expect(repoFile('deploy/healthcheck.mjs')).toContain("includes('is a standby')");
    expect(repoFile('deploy/healthcheck.mjs')).toContain("includes('needs a token')");
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
