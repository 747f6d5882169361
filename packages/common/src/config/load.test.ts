import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WeirError } from '../errors.ts';
import { envVarName } from './env.ts';
import { loadConfig, type LoadConfigOptions } from './load.ts';
import { isSensitiveKey, maskedConfig } from './sensitive.ts';
import { ConfigOptions, defaultConfig, type ConfigKey } from './options.ts';

function configFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'weir-config-')), 'weir.yaml');
  writeFileSync(path, text);
  return path;
}

function errorOf(options: LoadConfigOptions): WeirError {
  try {
    loadConfig(options);
  } catch (err) {
    expect(err).toBeInstanceOf(WeirError);
    expect((err as WeirError).code).toBe('INVALID_CONFIG');
    return err as WeirError;
  }
  throw new Error('loadConfig did not throw');
}

describe('loadConfig sources', () => {
  it('gives the defaults when nothing is set', () => {
    expect(loadConfig({})).toEqual(defaultConfig());
    expect(loadConfig({})['jobmanager.rpc.port']).toBe(6123);
  });

  it('binds every server to the loopback address unless told otherwise, as Flink ships its config', () => {
    const config = loadConfig({});
    expect([config['jobmanager.bind-host'], config['taskmanager.bind-host'], config['rest.bind-address']]).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
  });

  it('reads flat dotted keys from the file', () => {
    const file = configFile('jobmanager.rpc.port: 7000\nheartbeat.timeout: 10s\ntaskmanager.host: 10.0.0.5\n');
    const config = loadConfig({ file });
    expect(config['jobmanager.rpc.port']).toBe(7000);
    expect(config['heartbeat.timeout']).toBe(10_000);
    expect(config['taskmanager.host']).toBe('10.0.0.5');
    expect(config['heartbeat.interval']).toBe(10_000);
  });

  it('flattens nested maps into dotted keys', () => {
    const file = configFile('jobmanager:\n  rpc:\n    address: jm\n    port: 7001\ntaskmanager:\n  numberOfTaskSlots: 4\n');
    const config = loadConfig({ file });
    expect(config['jobmanager.rpc.address']).toBe('jm');
    expect(config['jobmanager.rpc.port']).toBe(7001);
    expect(config['taskmanager.numberOfTaskSlots']).toBe(4);
  });

  it('gives an empty file the defaults', () => {
    expect(loadConfig({ file: configFile('# nothing set\n') })).toEqual(defaultConfig());
  });

  it('lets env override the file and -D override env', () => {
    const file = configFile('jobmanager.rpc.port: 7000\nheartbeat.interval: 1s\nparallelism.default: 2\n');
    const config = loadConfig({
      file,
      env: { WEIR_JOBMANAGER_RPC_PORT: '7100', WEIR_PARALLELISM_DEFAULT: '3' },
      dynamic: { 'jobmanager.rpc.port': '7200' },
    });
    expect(config['jobmanager.rpc.port']).toBe(7200);
    expect(config['parallelism.default']).toBe(3);
    expect(config['heartbeat.interval']).toBe(1_000);
  });

  it('maps env var names with upper case and _ for . and -', () => {
    const config = loadConfig({ env: { WEIR_TASKMANAGER_BIND_HOST: '127.0.0.1', WEIR_TASKMANAGER_NUMBEROFTASKSLOTS: '8' } });
    expect(config['taskmanager.bind-host']).toBe('127.0.0.1');
    expect(config['taskmanager.numberOfTaskSlots']).toBe(8);
  });

  it('gives every key its own env var name', () => {
    const keys = Object.keys(ConfigOptions) as ConfigKey[];
    expect(new Set(keys.map(envVarName)).size).toBe(keys.length);
    expect(envVarName('jobmanager.rpc.port')).toBe('WEIR_JOBMANAGER_RPC_PORT');
  });

  it('ignores WEIR_CONFIG, WEIR_LOG_LEVEL, unset and non-WEIR variables', () => {
    const config = loadConfig({ env: { WEIR_CONFIG: '/nowhere.yaml', WEIR_LOG_LEVEL: 'debug', WEIR_HEARTBEAT_TIMEOUT: undefined, PATH: '/bin' } });
    expect(config).toEqual(defaultConfig());
  });

  it('returns a frozen object', () => {
    expect(Object.isFrozen(loadConfig({}))).toBe(true);
  });
});

describe('loadConfig validation', () => {
  it('rejects an unknown file key, naming the file and the closest key', () => {
    const file = configFile('heartbeat.timout: 5s\n');
    expect(errorOf({ file }).message).toBe(`unknown config key heartbeat.timout (from file ${file}); did you mean heartbeat.timeout?`);
  });

  it('rejects an unknown nested file key by its dotted name', () => {
    const file = configFile('jobmanager:\n  rpc:\n    prot: 1\n');
    expect(errorOf({ file }).message).toBe(`unknown config key jobmanager.rpc.prot (from file ${file}); did you mean jobmanager.rpc.port?`);
  });

  it('rejects an unknown env var, naming it and the closest variable', () => {
    expect(errorOf({ env: { WEIR_HEARTBEAT_TIMOUT: '5s' } }).message).toBe(
      'unknown config environment variable WEIR_HEARTBEAT_TIMOUT: it sets no config key; did you mean WEIR_HEARTBEAT_TIMEOUT (heartbeat.timeout)?',
    );
  });

  it('explains the env naming rule when no variable is close', () => {
    expect(errorOf({ env: { WEIR_SOMETHING_ELSE_ENTIRELY: 'x' } }).message).toBe(
      'unknown config environment variable WEIR_SOMETHING_ELSE_ENTIRELY: it sets no config key; config variables are WEIR_ plus the key in upper case with . and - as _, e.g. WEIR_JOBMANAGER_RPC_PORT for jobmanager.rpc.port',
    );
  });

  it('rejects an unknown -D key with the closest key', () => {
    expect(errorOf({ dynamic: { 'taskmanager.numberOfTaskSlot': '2' } }).message).toBe(
      'unknown config key taskmanager.numberOfTaskSlot (from -D taskmanager.numberOfTaskSlot=2); did you mean taskmanager.numberOfTaskSlots?',
    );
  });

  it('lists the known keys when no key is close', () => {
    const message = errorOf({ dynamic: { 'ui.colour': 'blue' } }).message;
    expect(message).toBe(`unknown config key ui.colour (from -D ui.colour=blue); known keys are ${Object.keys(ConfigOptions).join(', ')}`);
  });

  it('rejects a bad value from the file, saying what the type accepts', () => {
    const file = configFile('jobmanager.rpc.port: 70000\n');
    expect(errorOf({ file }).message).toBe(
      `invalid value 70000 for config key jobmanager.rpc.port (from file ${file}): expected a port number from 0 to 65535`,
    );
  });

  it('rejects a bad duration from env', () => {
    expect(errorOf({ env: { WEIR_HEARTBEAT_INTERVAL: 'soon' } }).message).toBe(
      'invalid value "soon" for config key heartbeat.interval (from environment variable WEIR_HEARTBEAT_INTERVAL): expected a duration: a whole number of milliseconds or a number with a unit (ms, s, min, h), e.g. 500ms, 10s, 2min, 1h',
    );
  });

  it('rejects a bad positive int from -D', () => {
    expect(errorOf({ dynamic: { 'taskmanager.numberOfTaskSlots': '0' } }).message).toBe(
      'invalid value "0" for config key taskmanager.numberOfTaskSlots (from -D taskmanager.numberOfTaskSlots=0): expected a whole number of 1 or more',
    );
  });

  it('rejects a key with no value in the file', () => {
    const file = configFile('taskmanager.host:\n');
    expect(errorOf({ file }).message).toBe(`invalid value null for config key taskmanager.host (from file ${file}): expected a string`);
  });

  it('rejects a missing config file', () => {
    const file = join(tmpdir(), 'weir-no-such-dir', 'weir.yaml');
    expect(errorOf({ file }).message).toBe(`config file ${file} does not exist; pass the path of a YAML file with -c/--config or WEIR_CONFIG`);
  });

  it('rejects a file that is not YAML', () => {
    const file = configFile('a: [1, 2\n');
    expect(errorOf({ file }).message).toMatch(new RegExp(`^config file ${file} is not valid YAML: `));
  });

  it('rejects a file that is not a map', () => {
    const file = configFile('- jobmanager.rpc.port\n');
    expect(errorOf({ file }).message).toBe(`config file ${file} must be a map of \`key: value\` lines, such as \`jobmanager.rpc.port: 6123\``);
  });

  it('rejects a key set both nested and dotted', () => {
    const file = configFile('heartbeat.timeout: 1s\nheartbeat:\n  timeout: 2s\n');
    expect(errorOf({ file }).message).toBe(`config key heartbeat.timeout is set twice in file ${file} (once nested, once dotted); keep one`);
  });
});

describe('enum keys', () => {
  it('name the values they accept', () => {
    expect(() => loadConfig({ dynamic: { 'execution.checkpointing.mode': 'ONCE' } })).toThrow(
      'invalid value "ONCE" for config key execution.checkpointing.mode (from -D execution.checkpointing.mode=ONCE): expected one of EXACTLY_ONCE, AT_LEAST_ONCE',
    );
    expect(loadConfig({ env: { WEIR_S3_PATH_STYLE_ACCESS: 'false' } })['s3.path-style-access']).toBe(false);
  });
});

describe('loadConfig secrets', () => {
  it('resolves ${file:/path} and ${env:NAME} values, from any source', () => {
    const secret = join(mkdtempSync(join(tmpdir(), 'weir-secret-')), 's3-key');
    writeFileSync(secret, 'from-a-file\n');
    const config = loadConfig({
      file: configFile(`s3.secret-key: \${file:${secret}}\n`),
      env: { S3_ACCESS: 'from-env', WEIR_S3_ENDPOINT: '${env:S3_ENDPOINT}', S3_ENDPOINT: 'http://minio:9000' },
      dynamic: { 's3.access-key': '${env:S3_ACCESS}' },
    });
    expect([config['s3.secret-key'], config['s3.access-key'], config['s3.endpoint']]).toEqual(['from-a-file', 'from-env', 'http://minio:9000']);
  });

  it('names the key and the reference of a value that is not there, never what a file holds', () => {
    expect(errorOf({ dynamic: { 's3.secret-key': '${env:NOPE}' } }).message).toBe(
      'config key s3.secret-key (from -D s3.secret-key=******) refers to a value that is not there: environment variable NOPE is not set; give ${file:/absolute/path} of a readable file or ${env:NAME} of a set variable',
    );
    expect(errorOf({ dynamic: { 's3.secret-key': '${file:/nowhere/key}' } }).message).toContain('file /nowhere/key cannot be read (ENOENT)');
    const shadow = join(mkdtempSync(join(tmpdir(), 'weir-secret-')), 'shadow');
    writeFileSync(shadow, 'root:*:20201:0:99999:7:::\n');
    expect(errorOf({ dynamic: { 'rest.port': `\${file:${shadow}}` } }).message).toBe(
      `invalid value "root:*:20201:0:99999:7:::" for config key rest.port (from -D rest.port=\${file:${shadow}}): expected a port number from 0 to 65535`,
    );
  });

  it('masks the values of sensitive keys in its messages, as Flink does', () => {
    expect(errorOf({ dynamic: { 's3.secret-key': '' }, file: configFile('s3.secret-key: [1, 2]\n') }).message).not.toContain('1, 2');
    expect(errorOf({ file: configFile('s3.secret-key: [1, 2]\n') }).message).toMatch(/^invalid value \*{6} for config key s3\.secret-key/);
    expect(maskedConfig(loadConfig({ dynamic: { 's3.secret-key': 'hunter2', 's3.access-key': 'AKIA' } }))).toMatchObject({ 's3.secret-key': '******', 's3.access-key': '******', 's3.region': 'us-east-1' });
    expect(maskedConfig(loadConfig({}))['s3.secret-key']).toBe('');
    expect(['security.auth.tokens-file', 'kafka.sasl.password', 'db.api-key', 'security.ssl.internal.key'].map(isSensitiveKey)).toEqual([true, true, true, true]);
  });
});
