import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parse } from 'yaml';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { loadConfig } from '@weir/common';
import { haSettingsFromConfig } from '@weir/ha';
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
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
};

const manifests: [string, Manifest][] = readdirSync(dir)
  .filter((name) => name.endsWith('.yaml'))
  .flatMap((file) => parseAllDocuments(readFileSync(`${dir}${file}`, 'utf8')).map((doc): [string, Manifest] => [file, doc.toJS() as Manifest]));

const byKind = (kind: string) => manifests.map(([, m]) => m).filter((m) => m.kind === kind);
type Container = { args?: string[]; env?: { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[] };
const containerOf = (name: string): Container =>
  (byKind('Deployment').find((m) => m.metadata.name === name)!.spec as { template: { spec: { containers: Container[] } } }).template.spec.containers[0]!;

describe('deploy/kubernetes', () => {
  it('holds a ConfigMap, etcd, two JobManagers and TaskManagers', () => {
    expect(manifests.map(([, m]) => `${m.kind}/${m.metadata.name}`).sort()).toEqual([
      'ConfigMap/weir-config',
      'Deployment/weir-jobmanager',
      'Deployment/weir-taskmanager',
      'Service/weir-etcd',
      'Service/weir-jobmanager',
      'StatefulSet/weir-etcd',
    ]);
    expect((byKind('Deployment').find((m) => m.metadata.name === 'weir-jobmanager')!.spec as { replicas: number }).replicas).toBe(2);
  });

  it.each(manifests.map(([file, m]) => [`${file}: ${m.kind}/${m.metadata.name}`, m] as const))('%s is valid against the Kubernetes API schema', (_name, manifest) => {
    const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
    expect(Model, `no schema for ${manifest.apiVersion} ${manifest.kind}`).toBeDefined();
    expect(() => new Model!(manifest as never).validate()).not.toThrow();
  });

  it('catches a manifest the API server would refuse', () => {
    const [, deployment] = manifests.find(([, m]) => m.kind === 'Deployment')!;
    const broken = { ...deployment, spec: { ...(deployment.spec as object), replicas: 'two' } };
    expect(() => new Deployment(broken as never).validate()).toThrow();
  });

  it("gives every process a weir.yaml the config loader accepts, with HA on the manifests' etcd", () => {
    const configMap = byKind('ConfigMap')[0]! as unknown as { data: Record<string, string> };
    const env = { WEIR_JOBMANAGER_RPC_ADDRESS: '10.0.0.7', WEIR_TASKMANAGER_HOST: '10.0.0.8', WEIR_S3_ACCESS_KEY: 'a', WEIR_S3_SECRET_KEY: 'b' };
    const config = loadConfig({ env, dynamic: Object.fromEntries(Object.entries(parse(configMap.data['weir.yaml']!) as Record<string, unknown>).map(([k, v]) => [k, String(v)])) });
    expect(haSettingsFromConfig(config, 'jobmanager')?.endpoints).toEqual(['http://weir-etcd:2379']);
    // Weir binds the loopback address by default: in a pod the other pods could not reach it.
    expect([config['jobmanager.bind-host'], config['taskmanager.bind-host'], config['rest.bind-address']]).toEqual(['0.0.0.0', '0.0.0.0', '0.0.0.0']);
    expect(byKind('Service').map((s) => s.metadata.name)).toContain('weir-etcd');
  });

  it.each([
    ['weir-jobmanager', 'jobmanager', 'WEIR_JOBMANAGER_RPC_ADDRESS'],
    ['weir-taskmanager', 'taskmanager', 'WEIR_TASKMANAGER_HOST'],
  ])('%s runs `weir %s` with the ConfigMap and publishes its pod IP as %s', (deployment, command, addressVariable) => {
    const container = containerOf(deployment);
    const parsed = parseArgv(container.args!.slice(1));
    expect(parsed.error).toBeUndefined();
    expect(parsed.calls.map(([action]) => action)).toEqual([command]);
    const env = Object.fromEntries((container.env ?? []).map((e) => [e.name, e]));
    expect(env.WEIR_CONFIG?.value).toBe('/etc/weir/weir.yaml');
    expect(env[addressVariable]?.valueFrom?.fieldRef?.fieldPath).toBe('status.podIP');
  });
});
