import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, parse } from 'yaml';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { StatefulSet } from 'kubernetes-models/apps/v1';
import { loadConfig, type Logger, type WeirConfig } from '@weir/common';
import { haSettingsFromConfig } from '@weir/ha';
import { checkExposure, initClusterSecurity, securitySettingsFromConfig } from '@weir/security';
import { parseArgv } from './testing/parse-argv.ts';

const dir = fileURLToPath(new URL('../../../deploy/kubernetes/', import.meta.url));

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  [field: string]: unknown;
}

/** The Kubernetes API schema of each kind the manifests use, as kubernetes-models carries them. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/StatefulSet': StatefulSet,
};

const manifests: [string, Manifest][] = readdirSync(dir)
  .filter((name) => name.endsWith('.yaml'))
  .flatMap((file) => parseAllDocuments(readFileSync(`${dir}${file}`, 'utf8')).map((doc): [string, Manifest] => [file, doc.toJS() as Manifest]));

const byKind = (kind: string) => manifests.map(([, m]) => m).filter((m) => m.kind === kind);
type EnvVar = { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } };
type Container = { args?: string[]; command?: string[]; env?: EnvVar[]; volumeMounts?: { name: string; mountPath: string; subPath?: string }[] };
type PodSpec = { containers: Container[]; volumes?: { name: string; secret?: { secretName: string; items?: { key: string; path: string }[] } }[] };
type StatefulSetSpec = { serviceName: string; replicas: number; template: { spec: PodSpec } };
const statefulSet = (name: string): StatefulSetSpec => byKind('StatefulSet').find((m) => m.metadata.name === name)!.spec as StatefulSetSpec;
const containerOf = (name: string): Container => statefulSet(name).template.spec.containers[0]!;

const configMap = () => (byKind('ConfigMap')[0]! as unknown as { data: Record<string, string> }).data['weir.yaml']!;
const POD_ENV = { WEIR_JOBMANAGER_RPC_ADDRESS: 'weir-jobmanager-0.weir-jobmanager.default.svc', WEIR_TASKMANAGER_HOST: 'weir-taskmanager-0.weir-taskmanager.default.svc', WEIR_S3_ACCESS_KEY: 'a', WEIR_S3_SECRET_KEY: 'b' };
const weirConfig = (): WeirConfig => loadConfig({ env: POD_ENV, dynamic: Object.fromEntries(Object.entries(parse(configMap()) as Record<string, unknown>).map(([k, v]) => [k, String(v)])) });

/** The files (absolute paths) a pod's container sees from Secret volumes: each item's path below its mount. */
function secretFiles(spec: PodSpec, container: Container): Map<string, { secret: string; key: string }> {
  const files = new Map<string, { secret: string; key: string }>();
  for (const mount of container.volumeMounts ?? []) {
    const secret = spec.volumes?.find((v) => v.name === mount.name)?.secret;
    if (secret === undefined) continue;
    // Without items a Secret volume holds whatever keys the Secret has: the test could not tell which.
    expect(secret.items, `the ${secret.secretName} volume lists its items`).toBeDefined();
    for (const item of secret.items!) files.set(posix.join(mount.mountPath, item.path), { secret: secret.secretName, key: item.key });
  }
  return files;
}

/** A container's env value with Kubernetes' $(VAR) expansion, the pod's fields filled in for pod 0 in `default`. */
function podValue(container: Container, name: string, podName: string): string {
  const fields: Record<string, string> = { 'metadata.name': podName, 'metadata.namespace': 'default' };
  const values = new Map((container.env ?? []).map((e) => [e.name, e.value ?? fields[e.valueFrom?.fieldRef?.fieldPath ?? '']]));
  return values.get(name)!.replace(/\$\(([A-Z_]+)\)/g, (_, v: string) => values.get(v) ?? `$(${v})`);
}

describe('deploy/kubernetes', () => {
  it('holds a ConfigMap, etcd, two JobManagers and TaskManagers, each StatefulSet with its Service', () => {
    expect(manifests.map(([, m]) => `${m.kind}/${m.metadata.name}`).sort()).toEqual([
      'ConfigMap/weir-config',
      'Service/weir-etcd',
      'Service/weir-jobmanager',
      'Service/weir-taskmanager',
      'StatefulSet/weir-etcd',
      'StatefulSet/weir-jobmanager',
      'StatefulSet/weir-taskmanager',
    ]);
    expect(statefulSet('weir-jobmanager').replicas).toBe(2);
    // The pods' DNS names (<pod>.<serviceName>) exist only with a headless Service of that name.
    for (const name of ['weir-jobmanager', 'weir-taskmanager']) {
      expect(statefulSet(name).serviceName).toBe(name);
      expect((byKind('Service').find((s) => s.metadata.name === name)!.spec as { clusterIP?: string }).clusterIP).toBe('None');
    }
  });

  it.each(manifests.map(([file, m]) => [`${file}: ${m.kind}/${m.metadata.name}`, m] as const))('%s is valid against the Kubernetes API schema', (_name, manifest) => {
    const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
    expect(Model, `no schema for ${manifest.apiVersion} ${manifest.kind}`).toBeDefined();
    expect(() => new Model!(manifest as never).validate()).not.toThrow();
  });

  it('catches a manifest the API server would refuse', () => {
    const [, set] = manifests.find(([, m]) => m.kind === 'StatefulSet')!;
    const broken = { ...set, spec: { ...(set.spec as object), replicas: 'two' } };
    expect(() => new StatefulSet(broken as never).validate()).toThrow();
  });

  it("gives every process a weir.yaml the config loader accepts: explicit bind addresses, security on, HA on the manifests' etcd over TLS", () => {
    const config = weirConfig();
    expect(haSettingsFromConfig(config, 'jobmanager')?.endpoints).toEqual(['https://weir-etcd:2379']);
    // Weir binds the loopback address by default: in a pod the other pods could not reach it.
    expect([config['jobmanager.bind-host'], config['taskmanager.bind-host'], config['rest.bind-address']]).toEqual(['0.0.0.0', '0.0.0.0', '0.0.0.0']);
    const settings = securitySettingsFromConfig(config);
    expect(settings.insecureBindAcknowledged).toBe(false);
    expect(settings.internalTls).toBeDefined();
    expect(settings.restTls).toBeDefined();
    expect(settings.tokensFile).toBeDefined();
    // The start-up check every process makes passes without the acknowledgement: nothing is bound unprotected.
    const warnings: string[] = [];
    const logger = { warn: (_: unknown, line: string) => warnings.push(line) } as unknown as Logger;
    const listener = (needs: { tls: 'internal' | 'rest'; authentication: boolean }) => ({ name: 'a listener', bindKey: 'k', host: '0.0.0.0', exposes: 'x', needs });
    expect(() => checkExposure(settings, [listener({ tls: 'internal', authentication: true }), listener({ tls: 'rest', authentication: true }), listener({ tls: 'internal', authentication: false })], logger)).not.toThrow();
    expect(warnings).toEqual([]);
    expect(config['high-availability.etcd.tls.cert']).not.toBe('');
  });

  it.each([
    ['weir-jobmanager', 'jobmanager', 'WEIR_JOBMANAGER_RPC_ADDRESS'],
    ['weir-taskmanager', 'taskmanager', 'WEIR_TASKMANAGER_HOST'],
  ])('%s runs `weir %s` with the ConfigMap and publishes its DNS name as %s', (name, command, addressVariable) => {
    const container = containerOf(name);
    const parsed = parseArgv(container.args!.slice(1));
    expect(parsed.error).toBeUndefined();
    expect(parsed.calls.map(([action]) => action)).toEqual([command]);
    expect(container.env?.find((e) => e.name === 'WEIR_CONFIG')?.value).toBe('/etc/weir/weir.yaml');
    expect(container.volumeMounts?.find((m) => m.mountPath === '/etc/weir/weir.yaml')?.subPath).toBe('weir.yaml');
    expect(podValue(container, addressVariable, `${name}-0`)).toBe(`${name}-0.${name}.default.svc`);
  });

  describe('the Secrets, as the README makes them', () => {
    let secrets: string;
    /** The files `weir security init` writes with the README's names. */
    let written: Set<string>;

    beforeAll(async () => {
      const readme = readFileSync(`${dir}README.md`, 'utf8');
      const line = /^pnpm weir security init \S+ (.+)$/m.exec(readme)?.[1];
      expect(line, 'the README shows `pnpm weir security init`').toBeDefined();
      const option = (flag: string) => [...line!.matchAll(new RegExp(`${flag} '?([^' ]+)'?`, 'g'))].map((m) => m[1]!);
      secrets = mkdtempSync(join(tmpdir(), 'weir-k8s-secrets-'));
      await initClusterSecurity(secrets, { hosts: option('--host'), ips: option('--ip') });
      written = new Set(readdirSync(secrets));
    });
    afterAll(() => rmSync(secrets, { recursive: true, force: true }));

    it.each([
      ['weir-jobmanager', []],
      // A TaskManager serves no REST API and never opens the REST certificate.
      ['weir-taskmanager', ['security.ssl.rest.cert', 'security.ssl.rest.key']],
    ])('%s has every file its config names, from keys weir security init writes (not the CA key)', (name, unused) => {
      const files = secretFiles(statefulSet(name).template.spec, containerOf(name));
      const config = weirConfig() as unknown as Record<string, unknown>;
      const named = Object.entries(config).filter(([key, value]) => /^(security\.|high-availability\.etcd\.tls\.)/.test(key) && typeof value === 'string' && value.startsWith('/') && !unused.includes(key));
      expect(named.map(([key]) => key).sort()).toEqual(
        ['high-availability.etcd.tls.ca', 'high-availability.etcd.tls.cert', 'high-availability.etcd.tls.key', 'security.auth.tokens-file', 'security.ssl.internal.ca', 'security.ssl.internal.cert', 'security.ssl.internal.key', 'security.ssl.rest.cert', 'security.ssl.rest.key'].filter((k) => !unused.includes(k)),
      );
      for (const [key, path] of named) expect(files.get(path as string), `${key}: ${String(path)} is mounted`).toBeDefined();
      for (const { secret, key } of files.values()) {
        expect(secret).toBe('weir-security');
        expect(written, `weir security init writes ${key}`).toContain(key);
      }
      expect([...files.values()].map((f) => f.key)).not.toContain('ca-key.pem');
    });

    it("etcd has the files its flags name, from weir-etcd-tls, and its certificate holds the endpoint's name", () => {
      const container = containerOf('weir-etcd');
      const files = secretFiles(statefulSet('weir-etcd').template.spec, container);
      const flags = Object.fromEntries(container.command!.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=') as [string, string]));
      for (const flag of ['cert-file', 'key-file', 'trusted-ca-file']) {
        const file = files.get(flags[flag]!);
        expect(file, `--${flag}=${flags[flag]} is mounted`).toMatchObject({ secret: 'weir-etcd-tls' });
        expect(written).toContain(file!.key);
      }
      expect(Object.keys(flags)).toContain('client-cert-auth');
      expect(flags['listen-client-urls']).toMatch(/^https:/);
      const cert = new X509Certificate(readFileSync(join(secrets, files.get(flags['cert-file']!)!.key)));
      expect(cert.checkHost(new URL(haSettingsFromConfig(weirConfig(), 'jobmanager')!.endpoints[0]!).hostname)).toBeDefined();
    });

    it('the node and REST certificates hold every name the pods publish and the port-forward reaches', () => {
      const node = new X509Certificate(readFileSync(join(secrets, 'node.pem')));
      const rest = new X509Certificate(readFileSync(join(secrets, 'rest.pem')));
      for (const pod of [0, 1]) expect(node.checkHost(podValue(containerOf('weir-jobmanager'), 'WEIR_JOBMANAGER_RPC_ADDRESS', `weir-jobmanager-${pod}`))).toBeDefined();
      for (const pod of [0, 2, 17]) expect(node.checkHost(podValue(containerOf('weir-taskmanager'), 'WEIR_TASKMANAGER_HOST', `weir-taskmanager-${pod}`))).toBeDefined();
      // The standby forwards REST to https://<the leader's address>:8081.
      expect(rest.checkHost(podValue(containerOf('weir-jobmanager'), 'WEIR_JOBMANAGER_RPC_ADDRESS', 'weir-jobmanager-1'))).toBeDefined();
      expect(rest.checkHost('localhost')).toBeDefined();
      expect(node.checkIP('127.0.0.1')).toBeDefined();
      // And not more than that: a name outside the cluster's Services is refused.
      expect(node.checkHost('weir-taskmanager-0.elsewhere.default.svc')).toBeUndefined();
    });
  });
});
