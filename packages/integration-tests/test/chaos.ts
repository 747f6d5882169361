import type { ProcessCluster } from '../src/index.ts';

import { setTimeout as sleep } from 'node:timers/promises';

/**
 * SIGKILLs a random live TaskManager `kills` times, the first after `firstMs`, then every
 * `spacingMs` (each ±40% at random), and starts a replacement after each kill, as compose's
 * restart policy would. Returns what it did, for the failure message of a test.
 */
export async function killTaskManagersAtRandom(cluster: ProcessCluster, kills: number, firstMs: number, spacingMs: number): Promise<string[]> {
  const log: string[] = [];
  const started = Date.now();
  for (let k = 0; k < kills; k++) {
    const base = k === 0 ? firstMs : spacingMs;
    await sleep(base * (0.6 + 0.8 * Math.random()));
    const live = cluster.liveTaskManagers;
    const victim = live[Math.floor(Math.random() * live.length)]!;
    await cluster.killTaskManager(victim);
    log.push(`${Date.now() - started} ms: SIGKILL ${victim.name}`);
    await sleep(300);
    const replacement = await cluster.startTaskManager();
    log.push(`${Date.now() - started} ms: started ${replacement.name}`);
  }
  return log;
}
