import { ManualClock, silentLogger } from '@weir/common/testing';
import { describe, expect, it } from 'vitest';
import { RestartPolicy } from './restart-policy.ts';
import { ProcessSupervisor } from './supervisor.ts';

const logger = silentLogger();

function node(script: string): { command: string; args: string[] } {
  return { command: process.execPath, args: ['-e', script] };
}

/** A child that prints "up", then waits for SIGTERM and says goodbye before exiting 0. */
const polite = node(`
  process.on('SIGTERM', () => { console.log('bye'); process.exit(0); });
  console.log('up'); setInterval(() => {}, 1000);`);

function harness() {
  const clock = new ManualClock();
  const lines: string[] = [];
  const gaveUp: string[] = [];
  const supervisor = new ProcessSupervisor({
    clock,
    logger,
    onLine: (name, stream, line) => lines.push(`${name} ${stream} ${line}`),
    onGiveUp: (name, exit) => gaveUp.push(`${name} ${exit.code} ${exit.signal}`),
  });
  return { clock, lines, gaveUp, supervisor };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('ProcessSupervisor', () => {
  it('forwards output line by line and stops children with SIGTERM', async () => {
    const { lines, gaveUp, supervisor } = harness();
    supervisor.start({ name: 'a', ...node(`console.log('one\\ntwo'); console.error('three'); setInterval(() => {}, 1000)`), restart: RestartPolicy.never() });
    supervisor.start({ name: 'b', ...polite, restart: RestartPolicy.never() });
    await until(() => lines.length === 4);
    await supervisor.stopAll();
    expect(lines.sort()).toEqual(['a stderr three', 'a stdout one', 'a stdout two', 'b stdout bye', 'b stdout up']);
    expect(gaveUp).toEqual([]);
  });

  it('restarts a killed child after the delay, not before', async () => {
    const { clock, lines, supervisor } = harness();
    supervisor.start({ name: 'tm', ...polite, restart: RestartPolicy.onFailure(2_000) });
    await until(() => lines.length === 1);
    const firstPid = supervisor.pid('tm');
    process.kill(firstPid!, 'SIGKILL');
    expect(await supervisor.exited('tm')).toEqual({ code: null, signal: 'SIGKILL' });
    clock.advance(1_999);
    expect(supervisor.pid('tm')).toBeUndefined();
    clock.advance(1);
    const secondPid = supervisor.pid('tm');
    expect(secondPid).toBeDefined();
    expect(secondPid).not.toBe(firstPid);
    await until(() => lines.length === 2);
    await supervisor.stopAll();
    expect(lines).toEqual(['tm stdout up', 'tm stdout up', 'tm stdout bye']);
  });

  it('does not restart a child that exits with code 0, and reports it', async () => {
    const { clock, gaveUp, supervisor } = harness();
    supervisor.start({ name: 'done', ...node('process.exit(0)'), restart: RestartPolicy.onFailure(2_000) });
    expect(await supervisor.exited('done')).toEqual({ code: 0, signal: null });
    clock.advance(5_000);
    expect(supervisor.pid('done')).toBeUndefined();
    expect(gaveUp).toEqual(['done 0 null']);
    await supervisor.stopAll();
  });

  it('reports a failed child whose policy is never', async () => {
    const { gaveUp, supervisor } = harness();
    supervisor.start({ name: 'jm', ...node('process.exit(3)'), restart: RestartPolicy.never() });
    await supervisor.exited('jm');
    expect(gaveUp).toEqual(['jm 3 null']);
    await supervisor.stopAll();
  });

  it('cancels a pending restart when stopping', async () => {
    const { clock, supervisor } = harness();
    supervisor.start({ name: 'tm', ...node('process.exit(1)'), restart: RestartPolicy.onFailure(2_000) });
    await supervisor.exited('tm');
    await supervisor.stopAll();
    clock.advance(2_000);
    expect(supervisor.pid('tm')).toBeUndefined();
  });

  it('SIGKILLs a child that ignores SIGTERM once the grace period passes', async () => {
    const clock = new ManualClock();
    const lines: string[] = [];
    const supervisor = new ProcessSupervisor({ clock, logger, stopGraceMs: 10_000, onLine: (_n, _s, line) => lines.push(line) });
    supervisor.start({ name: 'stubborn', ...node(`process.on('SIGTERM', () => console.log('ignored')); console.log('up'); setInterval(() => {}, 1000)`), restart: RestartPolicy.never() });
    await until(() => lines.length === 1);
    const exited = supervisor.exited('stubborn');
    const stopped = supervisor.stopAll();
    await until(() => lines.length === 2);
    clock.advance(10_000);
    await stopped;
    expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(lines).toEqual(['up', 'ignored']);
  });

  it('reports a command that cannot be started as a failed exit', async () => {
    const { gaveUp, supervisor } = harness();
    supervisor.start({ name: 'missing', command: '/nonexistent/weir-binary', args: [], restart: RestartPolicy.never() });
    expect(await supervisor.exited('missing')).toEqual({ code: -1, signal: null });
    expect(gaveUp).toEqual(['missing -1 null']);
    await supervisor.stopAll();
  });
});
