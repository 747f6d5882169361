import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import { openStorage } from './open-storage.ts';
import type { RetryPolicy } from './retry.ts';
import { createS3Client } from './s3-client.ts';
import { S3Storage } from './s3-storage.ts';
import { StoragePool } from './storage-pool.ts';
import { startS3rver, type RunningS3rver } from './testing/s3rver.ts';
import { storageContract } from './testing/storage-contract.ts';

const SHORT_RETRY: RetryPolicy = { attempts: 3, initialDelayMs: 10, maxDelayMs: 20 };

let server: RunningS3rver;
let prefixes = 0;

beforeAll(async () => {
  server = await startS3rver({ bucket: 'checkpoints' });
});

afterAll(async () => {
  await server.stop();
});

function storageAt(prefix: string): S3Storage {
  const client = createS3Client(server.settings);
  return new S3Storage({ client, release: () => client.destroy(), bucket: server.bucket, prefix, retry: SHORT_RETRY });
}

storageContract('S3Storage on s3rver', async () => {
  const storage = storageAt(`runs/test-${++prefixes}`);
  return { storage, cleanup: () => storage.deleteDirectory('') };
});

describe('S3Storage', () => {
  it('is opened from an s3:// URL with the settings, and names bucket and prefix in its URL', async () => {
    const storage = openStorage(`s3://${server.bucket}/jobs/job-1/`, server.settings, { retry: SHORT_RETRY });
    try {
      expect(storage.url).toBe('s3://checkpoints/jobs/job-1');
      await storage.writeAtomic('chk-1/_metadata', new TextEncoder().encode('{}'));
      const bucketRoot = openStorage(`s3://${server.bucket}`, server.settings);
      expect(bucketRoot.url).toBe('s3://checkpoints');
      expect(await bucketRoot.list('jobs')).toEqual(['jobs/job-1/chk-1/_metadata']);
      await storage.deleteDirectory('');
      expect(await bucketRoot.list('jobs')).toEqual([]);
      bucketRoot.close();
    } finally {
      storage.close();
    }
  });

  it('lists past one page of keys and deletes them in batches', async () => {
    const storage = storageAt('many');
    try {
      const paths = Array.from({ length: 1_105 }, (_, i) => `chk-1/f-${String(i).padStart(4, '0')}`);
      for (let i = 0; i < paths.length; i += 50) {
        await Promise.all(paths.slice(i, i + 50).map((path) => storage.write(path, Uint8Array.of(1))));
      }
      expect(await storage.list('chk-1')).toEqual(paths);
      await storage.deleteDirectory('chk-1');
      expect(await storage.list('')).toEqual([]);
    } finally {
      storage.close();
    }
  }, 60_000);

  it('fails with STORAGE_FAILURE after the attempts while S3 is down, and works again once it is back', async () => {
    const storage = storageAt('outage');
    try {
      await storage.write('before', Uint8Array.of(1));
      await server.stop();
      const error = await storage.write('chk-1/state', Uint8Array.of(2)).catch((e: unknown) => e);
      expect(isWeirError(error, 'STORAGE_FAILURE')).toBe(true);
      expect((error as Error).message).toMatch(
        /^write s3:\/\/checkpoints\/outage\/chk-1\/state failed after 3 attempts: .*ECONNREFUSED/,
      );
      const readError = await storage.read('before').catch((e: unknown) => e);
      expect((readError as Error).message).toMatch(/^read s3:\/\/checkpoints\/outage\/before failed after 3 attempts: /);
      await server.restart();
      await storage.write('chk-1/state', Uint8Array.of(2));
      expect(Array.from(await storage.read('before'))).toEqual([1]);
      expect(await storage.list('')).toEqual(['before', 'chk-1/state']);
      await storage.deleteDirectory('');
    } finally {
      storage.close();
    }
  });
});

describe('StoragePool', () => {
  it('opens one storage per URL, and storages of one pool share a client that closing one of them leaves open', async () => {
    const pool = new StoragePool(server.settings, { retry: SHORT_RETRY });
    try {
      const first = pool.open(`s3://${server.bucket}/pool/job-1`);
      const second = pool.open(`s3://${server.bucket}/pool/job-2`);
      expect(pool.open(`s3://${server.bucket}/pool/job-1`)).toBe(first);
      expect(second).not.toBe(first);
      await first.write('chk-1/a', Uint8Array.of(1));
      first.close();
      await second.write('chk-1/b', Uint8Array.of(2));
      expect(await pool.open(`s3://${server.bucket}/pool`).list('')).toEqual(['job-1/chk-1/a', 'job-2/chk-1/b']);
      await pool.open(`s3://${server.bucket}/pool`).deleteDirectory('');
      expect(() => pool.open('ftp://host/x')).toThrow(/^invalid storage URL "ftp:\/\/host\/x": its scheme ftp:\/\/ is not supported/);
    } finally {
      pool.close();
    }
  });
});
