import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig, isWeirError, type WeirConfig } from '@weir/common';
import { LocalStorage } from './local-storage.ts';
import { openStorage, parentLocation, s3SettingsFromConfig } from './open-storage.ts';
import { S3Storage } from './s3-storage.ts';
import type { S3Settings } from './types.ts';

const s3: S3Settings = { endpoint: 'http://127.0.0.1:1', accessKey: 'a', secretKey: 's', region: 'us-east-1', pathStyleAccess: true };

describe('openStorage', () => {
  it('opens a plain relative path below the working directory', () => {
    const storage = openStorage('.weir/checkpoints/', s3);
    expect(storage).toBeInstanceOf(LocalStorage);
    expect((storage as LocalStorage).root).toBe(resolve(process.cwd(), '.weir/checkpoints'));
  });

  it('opens an absolute path and a file:// URL as the same local directory', () => {
    const plain = openStorage('/data/weir', s3) as LocalStorage;
    const url = openStorage('file:///data/weir', s3) as LocalStorage;
    expect([plain.root, url.root]).toEqual(['/data/weir', '/data/weir']);
    expect(url.url).toBe('file:///data/weir');
  });

  it('opens an s3:// URL as an S3Storage of that bucket and prefix', () => {
    const storage = openStorage('s3://weir/checkpoints//job-1/', s3);
    expect(storage).toBeInstanceOf(S3Storage);
    expect(storage.url).toBe('s3://weir/checkpoints/job-1');
    storage.close();
  });

  it.each([
    ['', 'it is empty'],
    ['hdfs://namenode/checkpoints', 'its scheme hdfs:// is not supported'],
    ['s3a://bucket/x', 'its scheme s3a:// is not supported'],
    ['s3://', 'it names no bucket'],
    ['s3:///checkpoints', 'it names no bucket'],
    ['s3://bucket/a/../../other', "its key prefix contains '..'"],
    ['file://server/share', 'it is not a file URL of an absolute local path'],
  ])('rejects %j with INVALID_STORAGE_URL', (url, what) => {
    let error: unknown;
    try {
      openStorage(url, s3);
    } catch (e) {
      error = e;
    }
    expect(isWeirError(error, 'INVALID_STORAGE_URL')).toBe(true);
    expect((error as Error).message).toBe(
      `invalid storage URL ${JSON.stringify(url)}: ${what}; use s3://bucket/prefix, file:///absolute/path or a local path`,
    );
  });
});

describe('parentLocation', () => {
  it('gives the directory above a location in the same form', () => {
    expect(parentLocation('s3://bucket/jobs/job-1/chk-3')).toBe('s3://bucket/jobs/job-1');
    expect(parentLocation('s3://bucket/chk-3/')).toBe('s3://bucket');
    expect(parentLocation('file:///data/cp/job-1/chk-3')).toBe('file:///data/cp/job-1');
    expect(parentLocation('file:///chk-3')).toBe('file:///');
    expect(parentLocation('/data/cp/job-1/chk-3/')).toBe('/data/cp/job-1');
    expect(parentLocation('/chk-3')).toBe('/');
    expect(parentLocation('cp/chk-3')).toBe('cp');
    expect(parentLocation('chk-3')).toBe('.');
  });

  it('has none above a bucket or the file system root', () => {
    expect(parentLocation('s3://bucket')).toBeUndefined();
    expect(parentLocation('s3://bucket/')).toBeUndefined();
    expect(parentLocation('file:///')).toBeUndefined();
    expect(parentLocation('/')).toBeUndefined();
  });
});

describe('s3SettingsFromConfig', () => {
  it('leaves unset keys undefined so the SDK falls back to its defaults', () => {
    expect(s3SettingsFromConfig(defaultConfig())).toEqual({
      endpoint: undefined,
      accessKey: undefined,
      secretKey: undefined,
      region: 'us-east-1',
      pathStyleAccess: true,
    });
  });

  it('takes the s3.* keys', () => {
    const config: WeirConfig = {
      ...defaultConfig(),
      's3.endpoint': 'http://minio:9000',
      's3.access-key': 'minio',
      's3.secret-key': 'minio123',
      's3.region': 'eu-west-1',
      's3.path-style-access': false,
    };
    expect(s3SettingsFromConfig(config)).toEqual({
      endpoint: 'http://minio:9000',
      accessKey: 'minio',
      secretKey: 'minio123',
      region: 'eu-west-1',
      pathStyleAccess: false,
    });
  });
});
