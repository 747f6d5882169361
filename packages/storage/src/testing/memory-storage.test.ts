import { describe, expect, it } from 'vitest';
import { WeirError } from '@weir/common';
import { MemoryStorage } from './memory-storage.ts';
import { storageContract } from './storage-contract.ts';

storageContract('MemoryStorage', async () => ({ storage: new MemoryStorage('memory://contract'), cleanup: async () => {} }));

describe('MemoryStorage', () => {
  it('logs every call with its path from the root, and fails the operations and prefixes it is told to until healed', async () => {
    const root = new MemoryStorage('memory://cp');
    const job = root.child('job-1');
    root.fail('write', 'job-1/chk-2/', new WeirError('STORAGE_FAILURE', 'disk full'));
    await job.write('chk-1/a', Buffer.from('a'));
    await expect(job.write('chk-2/a', Buffer.from('a'))).rejects.toThrow('disk full');
    await job.writeAtomic('chk-2/_metadata', Buffer.from('{}'));
    root.heal();
    await job.write('chk-2/a', Buffer.from('a'));
    expect(root.log).toEqual(['write job-1/chk-1/a', 'write job-1/chk-2/a', 'writeAtomic job-1/chk-2/_metadata', 'write job-1/chk-2/a']);
    expect(root.paths()).toEqual(['job-1/chk-1/a', 'job-1/chk-2/_metadata', 'job-1/chk-2/a']);
    expect(job.text('job-1/chk-2/_metadata')).toBe('{}');
  });

  it('holds back the writes it is told to until released: logged when called, in place only after', async () => {
    const root = new MemoryStorage('memory://cp');
    const release = root.hold('writeAtomic', 'job-1/chk-1/');
    let written = false;
    const held = root.child('job-1').writeAtomic('chk-1/_metadata', Buffer.from('{}')).then(() => (written = true));
    await root.writeAtomic('job-1/chk-2/_metadata', Buffer.from('{}'));
    await new Promise((resolve) => setImmediate(resolve));
    expect([written, root.paths()]).toEqual([false, ['job-1/chk-2/_metadata']]);
    expect(root.log).toEqual(['writeAtomic job-1/chk-1/_metadata', 'writeAtomic job-1/chk-2/_metadata']);
    release();
    await held;
    expect(root.paths()).toEqual(['job-1/chk-1/_metadata', 'job-1/chk-2/_metadata']);
  });
});
