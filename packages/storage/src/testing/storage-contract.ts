import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import type { Storage } from '../types.ts';

export interface ContractFixture {
  readonly storage: Storage;
  /** Removes what the test wrote; the storage is closed by the suite. */
  cleanup(): Promise<void>;
}

const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** What every Storage must do, run against each implementation. */
export function storageContract(name: string, open: () => Promise<ContractFixture>): void {
  describe(`${name} (Storage contract)`, () => {
    let fixture: ContractFixture;
    let storage: Storage;

    beforeEach(async () => {
      fixture = await open();
      storage = fixture.storage;
    });

    afterEach(async () => {
      await fixture.cleanup();
      storage.close();
    });

    it('reads back what it wrote, byte for byte, and a second write replaces the first', async () => {
      const all = Uint8Array.from({ length: 256 }, (_, i) => i);
      await storage.write('chk-1/op/state', all);
      expect(Array.from(await storage.read('chk-1/op/state'))).toEqual(Array.from(all));
      await storage.write('chk-1/op/state', text('second'));
      expect(decode(await storage.read('chk-1/op/state'))).toBe('second');
      await storage.write('empty', new Uint8Array());
      expect((await storage.read('empty')).byteLength).toBe(0);
    });

    it('writes atomically, replacing an existing file, and round-trips a large file', async () => {
      await storage.writeAtomic('chk-2/_metadata', text('{"v":1}'));
      await storage.writeAtomic('chk-2/_metadata', text('{"v":2}'));
      expect(decode(await storage.read('chk-2/_metadata'))).toBe('{"v":2}');
      const large = Uint8Array.from({ length: 3 * 1024 * 1024 }, (_, i) => (i * 7) % 251);
      await storage.writeAtomic('large', large);
      const back = await storage.read('large');
      expect(back.byteLength).toBe(large.byteLength);
      expect(Buffer.compare(Buffer.from(back), Buffer.from(large))).toBe(0);
      expect(await storage.list('chk-2')).toEqual(['chk-2/_metadata']);
    });

    it('fails a read of a missing file with STORAGE_NOT_FOUND naming the path', async () => {
      const error = await errorOf(storage.read('chk-9/missing'));
      expect(isWeirError(error, 'STORAGE_NOT_FOUND')).toBe(true);
      expect((error as Error).message).toMatch(/^no file at .*chk-9\/missing: it does not exist$/);
    });

    it('refuses a file bigger than maxBytes with STORAGE_TOO_LARGE naming sizes, not content', async () => {
      await storage.write('chk-1/_metadata', text('root:*:20201:0:99999:7:::'));
      expect(decode(await storage.read('chk-1/_metadata', { maxBytes: 25 }))).toBe('root:*:20201:0:99999:7:::');
      const error = await errorOf(storage.read('chk-1/_metadata', { maxBytes: 24 }));
      expect(isWeirError(error, 'STORAGE_TOO_LARGE')).toBe(true);
      expect((error as Error).message).toMatch(/^.*chk-1\/_metadata is 25 bytes, more than the 24 bytes read from it here$/);
      expect((error as Error).message).not.toContain('root');
    });

    it('tells whether a file exists; a directory is no file', async () => {
      await storage.write('chk-1/a', text('a'));
      expect(await storage.exists('chk-1/a')).toBe(true);
      expect(await storage.exists('chk-1/b')).toBe(false);
      expect(await storage.exists('chk-1')).toBe(false);
      expect(await storage.exists('nowhere/at/all')).toBe(false);
    });

    it('lists files below a prefix recursively, sorted, as paths from the root', async () => {
      for (const path of ['chk-10/x', 'chk-1/b', 'chk-1/a/deep/file', 'chk-1/_metadata', 'shared/s1']) {
        await storage.write(path, text(path));
      }
      expect(await storage.list('chk-1')).toEqual(['chk-1/_metadata', 'chk-1/a/deep/file', 'chk-1/b']);
      expect(await storage.list('chk-1/')).toEqual(['chk-1/_metadata', 'chk-1/a/deep/file', 'chk-1/b']);
      expect(await storage.list('chk-1/a')).toEqual(['chk-1/a/deep/file']);
      expect(await storage.list('')).toEqual(['chk-1/_metadata', 'chk-1/a/deep/file', 'chk-1/b', 'chk-10/x', 'shared/s1']);
      expect(await storage.list('chk-3')).toEqual([]);
      expect(await storage.list('chk-1/b')).toEqual([]);
    });

    it('lists files with their sizes, as list does', async () => {
      await storage.write('shared/b', new Uint8Array(7));
      await storage.write('chk-2/_metadata', new Uint8Array(3));
      await storage.write('shared/a', new Uint8Array(0));
      expect(await storage.listSizes('')).toEqual([
        { path: 'chk-2/_metadata', bytes: 3 },
        { path: 'shared/a', bytes: 0 },
        { path: 'shared/b', bytes: 7 },
      ]);
      expect(await storage.child('shared').listSizes('')).toEqual([
        { path: 'a', bytes: 0 },
        { path: 'b', bytes: 7 },
      ]);
      expect(await storage.listSizes('nowhere')).toEqual([]);
    });

    it('deletes a file, and deleting a missing file is no error', async () => {
      await storage.write('chk-1/a', text('a'));
      await storage.write('chk-1/b', text('b'));
      await storage.delete('chk-1/a');
      await storage.delete('chk-1/a');
      await storage.delete('never/there');
      expect(await storage.exists('chk-1/a')).toBe(false);
      expect(await storage.list('')).toEqual(['chk-1/b']);
    });

    it('deletes everything below a prefix and nothing beside it', async () => {
      const files = Array.from({ length: 30 }, (_, i) => `chk-1/op-${String(i).padStart(2, '0')}`);
      for (const path of [...files, 'chk-1/nested/deeper/x', 'chk-10/keep', 'chk-2/keep']) {
        await storage.write(path, text(path));
      }
      await storage.deleteDirectory('chk-1');
      expect(await storage.list('')).toEqual(['chk-10/keep', 'chk-2/keep']);
      await storage.deleteDirectory('chk-1');
      await storage.deleteDirectory('never-there');
      expect(await storage.list('')).toEqual(['chk-10/keep', 'chk-2/keep']);
    });

    it('gives a child rooted below it that sees and writes the same files', async () => {
      await storage.write('job-1/chk-1/a', text('from parent'));
      const child = storage.child('job-1/');
      expect(child.url).toBe(`${storage.url}/job-1`);
      expect(decode(await child.read('chk-1/a'))).toBe('from parent');
      await child.write('chk-1/b', text('from child'));
      expect(await storage.list('job-1')).toEqual(['job-1/chk-1/a', 'job-1/chk-1/b']);
      expect(await child.list('')).toEqual(['chk-1/a', 'chk-1/b']);
      expect(storage.child('job-1/chk-1').url).toBe(`${storage.url}/job-1/chk-1`);
    });

    it.each([
      ['../escape', "contains '..'"],
      ['chk-1/../../escape', "contains '..'"],
      ['/etc/passwd', 'is not relative'],
      ['', 'names the storage root'],
    ])('rejects the path %j with INVALID_STORAGE_PATH', async (path, what) => {
      const error = await errorOf(storage.read(path));
      expect(isWeirError(error, 'INVALID_STORAGE_PATH')).toBe(true);
      expect((error as Error).message).toContain(what);
    });
  });
}
