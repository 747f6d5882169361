import { chmod, mkdir, mkdtemp, open, rm, symlink, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import { LocalStorage } from './local-storage.ts';
import { storageContract } from './testing/storage-contract.ts';

async function tempDirectory(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'weir-local-storage-'));
}

storageContract('LocalStorage', async () => {
  const root = await tempDirectory();
  return { storage: new LocalStorage(join(root, 'checkpoints')), cleanup: () => rm(root, { recursive: true, force: true }) };
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Makes a directory unwritable even for root, who ignores permission bits: with the
 * immutable attribute where the file system has it, with mode 0555 for anyone else.
 * Returns false when neither is possible here.
 */
function makeUnwritable(directory: string): boolean {
  if (process.getuid?.() !== 0) {
    execFileSync('chmod', ['0555', directory]);
    cleanups.push(() => chmod(directory, 0o755));
    return true;
  }
  try {
    execFileSync('chattr', ['+i', directory], { stdio: 'ignore' });
  } catch {
    return false;
  }
  cleanups.push(async () => execFileSync('chattr', ['-i', directory]));
  return true;
}

describe('LocalStorage', () => {
  it('has a file:// URL of its root', () => {
    expect(new LocalStorage('/data/weir checkpoints').url).toBe('file:///data/weir%20checkpoints');
  });

  it('fails writes into a directory it may not write with STORAGE_FAILURE naming the directory, at once', async (context) => {
    const root = await tempDirectory();
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const locked = join(root, 'locked');
    const storage = new LocalStorage(locked);
    await storage.write('seed', Uint8Array.of(1));
    if (!makeUnwritable(locked)) context.skip('neither chattr nor a non-root user is available to make a directory unwritable');
    for (const write of [storage.write.bind(storage), storage.writeAtomic.bind(storage)]) {
      const error = await write('chk-1/state', Uint8Array.of(1)).catch((e: unknown) => e);
      expect(isWeirError(error, 'STORAGE_FAILURE')).toBe(true);
      expect((error as Error).message).toMatch(
        new RegExp(`^cannot write ${locked}/chk-1/state: E(ACCES|PERM): .*'${locked}/chk-1'; the storage directory ${locked} must be writable and have free space$`),
      );
    }
  });

  it('fails a write below a path that is a file with STORAGE_FAILURE naming it', async () => {
    const root = await tempDirectory();
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    await writeFile(join(root, 'chk-1'), 'not a directory');
    const storage = new LocalStorage(root);
    const error = await storage.writeAtomic('chk-1/_metadata', Uint8Array.of(1)).catch((e: unknown) => e);
    expect(isWeirError(error, 'STORAGE_FAILURE')).toBe(true);
    expect((error as Error).message).toMatch(new RegExp(`^cannot write ${root}/chk-1/_metadata: E(EXIST|NOTDIR): .*${root}/chk-1`));
    expect(await storage.list('')).toEqual(['chk-1']);
  });

  it('leaves no temp file behind after an atomic write', async () => {
    const root = await tempDirectory();
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const storage = new LocalStorage(root);
    await storage.writeAtomic('chk-1/_metadata', Uint8Array.of(1, 2));
    await storage.writeAtomic('chk-1/_metadata', Uint8Array.of(3));
    expect(await storage.list('')).toEqual(['chk-1/_metadata']);
  });
});

describe('LocalStorage reads regular files below its root only', () => {
  async function storageWith(setup: (dir: string) => Promise<void>): Promise<LocalStorage> {
    const root = await tempDirectory();
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const dir = join(root, 'savepoint-1');
    await mkdir(dir);
    await setup(dir);
    return new LocalStorage(dir);
  }

  async function refusal(storage: LocalStorage, path: string, maxBytes?: number): Promise<Error> {
    const started = Date.now();
    const error = await storage.read(path, { maxBytes }).then(
      () => expect.unreachable(),
      (err: unknown) => err as Error,
    );
    // Refused on what the file is, before its bytes are read.
    expect(Date.now() - started).toBeLessThan(1_000);
    return error;
  }

  it('refuses a _metadata that is a symbolic link to /dev/zero', async () => {
    const storage = await storageWith((dir) => symlink('/dev/zero', join(dir, '_metadata')));
    const error = await refusal(storage, '_metadata', 1_000);
    expect(isWeirError(error, 'STORAGE_NOT_REGULAR_FILE')).toBe(true);
    expect(error.message).toBe(`${join(storage.root, '_metadata')} is a symbolic link to a file outside ${storage.root}; files of a checkpoint or savepoint are read only from below its directory`);
  });

  it('refuses a symbolic link to a readable file outside the directory, without echoing its bytes', async () => {
    const outside = join(await tempDirectory(), 'shadow');
    await writeFile(outside, 'root:*:20201:0:99999:7:::\n');
    const storage = await storageWith((dir) => symlink(outside, join(dir, '_metadata')));
    const error = await refusal(storage, '_metadata');
    expect(isWeirError(error, 'STORAGE_NOT_REGULAR_FILE')).toBe(true);
    expect(error.message).not.toContain('root:');
    expect(error.message).not.toContain(outside);
  });

  it('reads a symbolic link that stays below the directory', async () => {
    const storage = await storageWith(async (dir) => {
      await writeFile(join(dir, 'real'), 'state');
      await symlink(join(dir, 'real'), join(dir, '_metadata'));
    });
    expect(Buffer.from(await storage.read('_metadata')).toString()).toBe('state');
  });

  it('refuses a FIFO at once instead of waiting for a writer', async () => {
    const storage = await storageWith(async (dir) => {
      execFileSync('mkfifo', [join(dir, '_metadata')]);
    });
    const error = await refusal(storage, '_metadata');
    expect(isWeirError(error, 'STORAGE_NOT_REGULAR_FILE')).toBe(true);
    expect(error.message).toBe(`${join(storage.root, '_metadata')} is not a regular file (a device, FIFO or socket); files of a checkpoint or savepoint are regular files`);
  });

  it('refuses a 1.5 GB sparse file past maxBytes by its size, within a second', async () => {
    const storage = await storageWith(async (dir) => {
      const handle = await open(join(dir, '_metadata'), 'w');
      await handle.truncate(1_500_000_000);
      await handle.close();
    });
    const error = await refusal(storage, '_metadata', 128 * 1024 ** 2);
    expect(isWeirError(error, 'STORAGE_TOO_LARGE')).toBe(true);
    expect(error.message).toBe(`${join(storage.root, '_metadata')} is 1500000000 bytes, more than the 134217728 bytes read from it here`);
  });
});
