import { describe, expect, it } from 'vitest';
import { ManualClock, recordingLogger } from '@weir/common/testing';
import { FakeLivenessProbes } from '../testing/fake-liveness.ts';
import { LivenessWatch } from './liveness-watch.ts';

const INTERVAL = 1_000;
const PROBE_TIMEOUT = 1_000;
const TIMEOUT = 50_000;

function setup() {
  const clock = new ManualClock();
  const probes = new FakeLivenessProbes();
  const events: string[] = [];
  const { logger, entries } = recordingLogger();
  const watch = new LivenessWatch('tm-1', 'tm-1:7001', { clock, probeIntervalMs: INTERVAL, probeTimeoutMs: PROBE_TIMEOUT, timeoutMs: TIMEOUT }, probes.probe, {
    unanswered: (detail) => events.push(`unanswered ${detail}`),
    blocked: (ms) => events.push(`blocked ${ms}`),
  }, logger);
  const logs = () => entries.filter((e) => e.level === 'warn' || e.level === 'info').map((e) => `${e.level}: ${e.message}`);
  return { clock, probes, events, watch, logs };
}

describe('LivenessWatch', () => {
  it('probes at start, then an interval after each answer', async () => {
    const { clock, probes, events, watch } = setup();
    watch.start();
    expect(probes.sent.map((p) => p.address)).toEqual(['tm-1:7001']);
    await probes.latest.answer(150);
    clock.advance(INTERVAL - 1);
    expect(probes.sent).toHaveLength(1);
    clock.advance(1);
    expect(probes.sent).toHaveLength(2);
    await probes.latest.answer(10);
    clock.advance(INTERVAL);
    expect(probes.sent).toHaveLength(3);
    expect(events).toEqual([]);
  });

  it('waits for a TaskManager whose event loop is busy but that answers, and logs the block once', async () => {
    const { clock, probes, events, watch, logs } = setup();
    watch.start();
    // A user function blocks the loop for 12 s: the thread of the endpoint answers all along.
    for (let blocked = 0; blocked <= 12_000; blocked += INTERVAL) {
      await probes.latest.answer(blocked);
      clock.advance(INTERVAL);
    }
    await probes.latest.answer(40);
    expect(events).toEqual([]);
    expect(logs()).toEqual([
      'warn: event loop of TaskManager tm-1 blocked for 2.0 s; it answers liveness probes, so it is lost only if it stays blocked for heartbeat.timeout (50s)',
      'info: event loop of TaskManager tm-1 runs again, after a block of at least 12.0 s',
    ]);
  });

  it('reports a TaskManager whose event loop stays blocked for heartbeat.timeout, and probes no more', async () => {
    const { clock, probes, events, watch } = setup();
    watch.start();
    await probes.latest.answer(TIMEOUT - 1);
    expect(events).toEqual([]);
    clock.advance(INTERVAL);
    await probes.latest.answer(TIMEOUT + 700);
    expect(events).toEqual([`blocked ${TIMEOUT + 700}`]);
    clock.advance(INTERVAL * 10);
    expect(probes.sent).toHaveLength(2);
  });

  it('reports a TaskManager that leaves two probes in a row unanswered (stopped or out of reach)', async () => {
    const { clock, probes, events, watch } = setup();
    watch.start();
    await probes.latest.answer(20);
    clock.advance(INTERVAL);
    const first = probes.latest;
    clock.advance(PROBE_TIMEOUT - 1);
    expect(first.signal.aborted).toBe(false);
    clock.advance(1);
    // The first miss aborts its request and probes again at once.
    expect(first.signal.aborted).toBe(true);
    expect(probes.sent).toHaveLength(3);
    expect(events).toEqual([]);
    clock.advance(PROBE_TIMEOUT);
    expect(events).toEqual(['unanswered (2 in a row, each given 1s; the last: no answer within 1s)']);
    // A late answer changes nothing.
    await first.answer(5);
    clock.advance(INTERVAL * 10);
    expect(probes.sent).toHaveLength(3);
    expect(events).toHaveLength(1);
  });

  it('forgives one miss that an answer follows: the JobManager itself may have stalled', async () => {
    const { clock, probes, events, watch } = setup();
    watch.start();
    clock.advance(PROBE_TIMEOUT);
    await probes.latest.answer(30);
    clock.advance(INTERVAL);
    clock.advance(PROBE_TIMEOUT);
    await probes.latest.answer(30);
    expect(events).toEqual([]);
  });

  it('counts a failed request (connection refused) as a miss', async () => {
    const { probes, events, watch } = setup();
    watch.start();
    await probes.latest.fail('connect ECONNREFUSED 127.0.0.1:7001');
    await probes.latest.fail('connect ECONNREFUSED 127.0.0.1:7001');
    expect(events).toEqual(['unanswered (2 in a row, each given 1s; the last: connect ECONNREFUSED 127.0.0.1:7001)']);
  });

  it('probes out of turn when asked, once at a time, and names why in the report', async () => {
    const { clock, probes, events, watch } = setup();
    watch.start();
    await probes.latest.answer(20);
    expect(watch.probeNow('TaskManager tm-2 could not reach it')).toBe(true);
    expect(probes.sent).toHaveLength(2);
    expect(watch.probeNow('TaskManager tm-3 could not reach it')).toBe(false);
    clock.advance(PROBE_TIMEOUT * 2);
    expect(events).toEqual(['unanswered (2 in a row, each given 1s; the last: no answer within 1s) after TaskManager tm-3 could not reach it']);
  });

  it('says how long the loop has been blocked while a recent answer says so', async () => {
    const { clock, probes, watch } = setup();
    watch.start();
    await probes.latest.answer(100);
    expect(watch.blockedForMs()).toBeUndefined();
    clock.advance(INTERVAL);
    await probes.latest.answer(45_000);
    clock.advance(500);
    expect(watch.blockedForMs()).toBe(45_500);
    // Unanswered since: the answer is too old to say anything of now.
    clock.advance(2 * (INTERVAL + PROBE_TIMEOUT));
    expect(watch.blockedForMs()).toBeUndefined();
  });

  it('aborts the probe in flight on stop and reports nothing after', async () => {
    const { clock, probes, events, watch } = setup();
    watch.start();
    watch.stop();
    expect(probes.latest.signal.aborted).toBe(true);
    clock.advance(PROBE_TIMEOUT * 5);
    await probes.latest.answer(TIMEOUT * 2);
    expect(events).toEqual([]);
    expect(watch.probeNow('late')).toBe(false);
  });
});
