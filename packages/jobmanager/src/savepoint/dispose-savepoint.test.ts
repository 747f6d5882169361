import { describe, expect, it } from 'vitest';
import { silentLogger } from '@weir/common/testing';
import { MemoryStorage } from '@weir/storage/testing';
import { disposeSavepoint } from './dispose-savepoint.ts';

/** A savepoint, a retained checkpoint, a directory with a corrupt `_metadata`, and one without. */
function storage(): MemoryStorage {
  const root = new MemoryStorage('memory://root');
  root.files.set('sp/_metadata', Buffer.from(JSON.stringify({ version: 1, kind: 'savepoint' })));
  root.files.set('sp/op-1', Buffer.from('state'));
  root.files.set('chk-3/_metadata', Buffer.from(JSON.stringify({ version: 1, kind: 'checkpoint' })));
  root.files.set('broken/_metadata', Buffer.from('{"kin'));
  root.files.set('data/file.csv', Buffer.from('a,b'));
  return root;
}

const dispose = (root: MemoryStorage, path: string) => disposeSavepoint(path, (url) => root.child(url), silentLogger(), 1024);

describe('disposeSavepoint', () => {
  it('deletes a savepoint directory', async () => {
    const root = storage();
    await dispose(root, 'sp');
    expect(root.paths()).toEqual(['broken/_metadata', 'chk-3/_metadata', 'data/file.csv']);
  });

  it('refuses anything that is not a savepoint, naming the path and what is there, and deletes nothing', async () => {
    const root = storage();
    await expect(dispose(root, 'data')).rejects.toMatchObject({
      code: 'NOT_A_SAVEPOINT',
      message: 'data is not a savepoint: it holds no _metadata file (a savepoint directory has one); nothing was deleted',
    });
    await expect(dispose(root, 'chk-3')).rejects.toMatchObject({
      code: 'NOT_A_SAVEPOINT',
      message: "chk-3 is not a savepoint: its _metadata describes a checkpoint, not a savepoint (a retained checkpoint goes with its job's checkpoint directory); nothing was deleted",
    });
    await expect(dispose(root, 'broken')).rejects.toMatchObject({ code: 'NOT_A_SAVEPOINT', message: 'broken is not a savepoint: its _metadata is not JSON; nothing was deleted' });
    await expect(dispose(root, ' ')).rejects.toMatchObject({ code: 'INVALID_SAVEPOINT_REQUEST' });
    expect(root.paths()).toEqual(['broken/_metadata', 'chk-3/_metadata', 'data/file.csv', 'sp/_metadata', 'sp/op-1']);
    expect(root.log.filter((l) => l.startsWith('delete'))).toEqual([]);
  });
});
