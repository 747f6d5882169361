import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '@weir/common/testing';
import { LocalStateDir } from './local-state-dir.ts';
import { hostProcessTable, isGone, ownIdentity, type ProcessIdentity, type ProcessTable } from './process-identity.ts';

const logger = silentLogger();

/** A host whose processes are the given PIDs with their start ticks. */
function table(processes: Record<number, number>, host = 'host-a', bootId = 'boot-1'): ProcessTable {
  return { hostname: host, bootId, startTicks: (pid) => processes[pid], exists: (pid) => pid in processes };
}

const owner = (pid: number, startTicks: number | undefined, host = 'host-a', bootId: string | undefined = 'boot-1'): ProcessIdentity => ({ hostname: host, pid, startTicks, bootId });

describe('isGone', () => {
  it('judges a process of this host by PID, start time and boot ID', () => {
    const host = table({ 10: 500 });
    expect(isGone(owner(10, 500), host)).toBe(false);
    expect(isGone(owner(11, 500), host)).toBe(true);
    // PID 10 was reused by a process that started later.
    expect(isGone(owner(10, 400), host)).toBe(true);
    // The host rebooted since the owner wrote its file: whatever runs under its PID now is another process.
    expect(isGone(owner(10, 500, 'host-a', 'boot-0'), host)).toBe(true);
    // Without a start time (no /proc where it was written), an existing PID counts as the owner.
    expect(isGone(owner(10, undefined), host)).toBe(false);
  });

  it("never judges another host's process gone", () => {
    expect(isGone(owner(11, 500, 'host-b'), table({ 10: 500 }))).toBe(false);
  });

  it('knows this process alive on this host', () => {
    expect(isGone(ownIdentity(), hostProcessTable)).toBe(false);
    if (existsSync('/proc/self/stat')) expect(ownIdentity().startTicks).toBeGreaterThan(0);
  });
});

describe('LocalStateDir', () => {
  it('removes the directories of TaskManagers that are gone, keeps those of live ones and what is not its layout, and its own until released', async () => {
    const root = mkdtempSync(join(tmpdir(), 'weir-local-state-test-'));
    const host = table({ [process.pid]: 900, 20: 100, 30: 200 });
    const other = (id: string) => LocalStateDir.claim({ root, taskManagerId: id, logger, processes: table({ [process.pid]: 900, 20: 100, 30: 200 }) });
    const live = await other('live');
    const reused = await other('reused');
    const dead = await other('dead');
    // Rewrite the owners as other processes would have written them: live (PID 20 as it started), reused (PID 30, started before the current PID 30), dead (PID 40, none now).
    writeFileSync(`${live.directory}.owner`, JSON.stringify(owner(20, 100)));
    writeFileSync(`${reused.directory}.owner`, JSON.stringify(owner(30, 150)));
    writeFileSync(`${dead.directory}.owner`, JSON.stringify(owner(40, 100)));
    for (const dir of [live, reused, dead]) mkdirSync(join(dir.directory, 'job1', 'sums-0-abcd', 'db'), { recursive: true });
    // Not this layout: no owner file, or one that does not parse.
    mkdirSync(join(root, 'weir-foreign'));
    writeFileSync(join(root, 'weir-corrupt.owner'), 'not json');
    mkdirSync(join(root, 'weir-corrupt'));

    const self = await LocalStateDir.claim({ root, taskManagerId: 'tm:1/x', logger, processes: host });
    expect(self.directory).toMatch(/weir-tm_1_x-[0-9a-f]{6}$/);
    expect((await self.sweep()).sort()).toEqual([dead.directory, reused.directory].sort());
    const left = readdirSync(root).sort();
    expect(left).toEqual(
      [live.directory, `${live.directory}.owner`, self.directory, `${self.directory}.owner`].map((p) => p.slice(root.length + 1)).concat(['weir-corrupt', 'weir-corrupt.owner', 'weir-foreign']).sort(),
    );
    expect(await self.sweep()).toEqual([]);

    await self.release();
    expect(existsSync(self.directory)).toBe(false);
    expect(existsSync(`${self.directory}.owner`)).toBe(false);
  });

  it('gives two TaskManagers with the same resource-id directories of their own', async () => {
    const root = mkdtempSync(join(tmpdir(), 'weir-local-state-test-'));
    const a = await LocalStateDir.claim({ root, taskManagerId: 'tm-1', logger });
    const b = await LocalStateDir.claim({ root, taskManagerId: 'tm-1', logger });
    expect(a.directory).not.toBe(b.directory);
    expect(await b.sweep()).toEqual([]);
    expect(existsSync(a.directory)).toBe(true);
  });
});
