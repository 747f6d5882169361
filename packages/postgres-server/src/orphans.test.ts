import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PostgresServer, postgresAvailable } from './index.ts';
import { sweepOrphans } from './orphans.ts';

describe.skipIf(!postgresAvailable())('sweepOrphans', () => {
  it('stops and removes an instance whose owning process is gone, and leaves one whose owner lives', async () => {
    const kept = await PostgresServer.start();
    const orphan = await PostgresServer.start();
    try {
      // A pid that just ended: what a SIGKILLed test runner leaves in its instance's directory.
      const gone = spawnSync('true').pid!;
      writeFileSync(join(orphan.baseDir, 'owner.pid'), `${gone}\n`);
      const postmaster = orphan.pid!;

      expect(sweepOrphans()).toBeGreaterThanOrEqual(1);

      expect(existsSync(orphan.baseDir)).toBe(false);
      // The postmaster is this process's child here: it is gone once Node has reaped it.
      await expect.poll(() => orphan.running, { timeout: 10_000 }).toBe(false);
      expect(() => process.kill(postmaster, 0)).toThrow();
      expect(kept.psql('SELECT 1')).toBe('1');
      expect(existsSync(kept.baseDir)).toBe(true);
    } finally {
      await orphan.destroy();
      await kept.destroy();
    }
  });
});
