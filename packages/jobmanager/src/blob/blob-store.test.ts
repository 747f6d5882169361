import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import { BlobStore } from './blob-store.ts';

describe('BlobStore', () => {
  it('creates its directory, stores a bundle by SHA-256 on disk and serves it', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'weir-blobs-')), 'nested', 'blobs');
    const store = await BlobStore.open(dir);
    const bundle = Buffer.from('exports.default = function () {};');
    const hash = await store.put(bundle);
    expect(hash).toBe(createHash('sha256').update(bundle).digest('hex'));
    expect(await readdir(dir)).toEqual([`${hash}.js`]);
    expect((await readFile(join(dir, `${hash}.js`))).equals(bundle)).toBe(true);
    expect(store.get(hash).equals(bundle)).toBe(true);
    expect(await store.put(Buffer.from(bundle))).toBe(hash);
    expect(await readdir(dir)).toEqual([`${hash}.js`]);
  });

  it('rejects an unknown hash with BUNDLE_NOT_FOUND naming it', async () => {
    const store = await BlobStore.open(await mkdtemp(join(tmpdir(), 'weir-blobs-')));
    try {
      store.get('abc123');
      expect.unreachable();
    } catch (err) {
      expect(isWeirError(err, 'BUNDLE_NOT_FOUND')).toBe(true);
      expect((err as Error).message).toContain("'abc123'");
    }
  });

  it('fails with BLOB_STORE_FAILED when the directory cannot be created', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weir-blobs-'));
    const store = await BlobStore.open(dir);
    const file = join(dir, `${await store.put(Buffer.from('x'))}.js`);
    await expect(BlobStore.open(join(file, 'sub'))).rejects.toMatchObject({ code: 'BLOB_STORE_FAILED' });
  });
});
