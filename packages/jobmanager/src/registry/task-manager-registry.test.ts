import { describe, expect, it } from 'vitest';
import { isWeirError, type WeirError } from '@weir/common';
import { ManualClock } from '@weir/common/testing';
import type { RegisterTaskManager__Output, TaskStatusUpdate__Output } from '@weir/rpc';
import { silentLogger } from '@weir/common/testing';
import { FakeLivenessProbes } from '../testing/fake-liveness.ts';
import { FakeConnection } from '../testing/fixtures.ts';
import { TaskManagerRegistry } from './task-manager-registry.ts';

const INTERVAL = 1_000;
const TIMEOUT = 5_000;
const PROBE_TIMEOUT = 1_000;

function setup() {
  const clock = new ManualClock();
  const events: string[] = [];
  const updates: TaskStatusUpdate__Output[] = [];
  const probes = new FakeLivenessProbes();
  const settings = { clock, intervalMs: INTERVAL, timeoutMs: TIMEOUT, probeIntervalMs: INTERVAL, probeTimeoutMs: PROBE_TIMEOUT };
  const registry = new TaskManagerRegistry(settings, silentLogger(), {
    registered: (tm) => events.push(`registered ${tm.id} ${tm.slots}@${tm.dataAddress}`),
    lost: (tm, cause) => events.push(`lost ${tm.id}: ${cause.message} [${cause.code}]`),
    taskStatus: (id, update) => {
      events.push(`status from ${id}`);
      updates.push(update);
    },
    acknowledgeCheckpoint: (id, message) => events.push(`ack ${message.checkpointId} from ${id}`),
    declineCheckpoint: (id, message) => events.push(`decline ${message.checkpointId} from ${id}: ${message.reasonCode}`),
    awaitingFinalCheckpoint: (id, message) => events.push(`awaiting final checkpoint after ${message.lastCheckpointBeforeEnd} from ${id}`),
    operatorEvent: (id, message) => events.push(`operator event for ${message.operatorId} from ${id}`),
    metricsReport: (id, message) => events.push(`metrics of ${message.tasks.length} tasks from ${id}`),
  }, probes.probe);
  return { clock, events, updates, registry, probes };
}

/** Without a liveness address, as the tests of heartbeats want it: heartbeats alone watch it. */
function registration(id: string, slots = 2): RegisterTaskManager__Output {
  return { taskManagerId: id, dataAddress: `${id}:7000`, slots, pid: 42, leaderEpoch: 0, livenessAddress: '' };
}

function withLiveness(id: string): RegisterTaskManager__Output {
  return { ...registration(id), livenessAddress: `${id}:7001` };
}

const heartbeat = { kind: 'heartbeat' as const, heartbeat: { timestampMs: 0 } };

describe('TaskManagerRegistry', () => {
  it('confirms a registration with the heartbeat settings and sends a heartbeat every interval', () => {
    const { clock, events, registry } = setup();
    const connection = new FakeConnection();
    registry.register(registration('tm-1'), connection);
    expect(events).toEqual(['registered tm-1 2@tm-1:7000']);
    expect(connection.sent).toEqual([{ registered: { taskManagerId: 'tm-1', heartbeatIntervalMs: INTERVAL, heartbeatTimeoutMs: TIMEOUT } }]);
    clock.advance(INTERVAL * 3);
    expect(connection.sent.slice(1)).toEqual([
      { heartbeat: { timestampMs: 1_000 } },
      { heartbeat: { timestampMs: 2_000 } },
      { heartbeat: { timestampMs: 3_000 } },
    ]);
    expect(registry.send('tm-1', { cancel: {} })).toBe(true);
    expect(registry.send('tm-2', { cancel: {} })).toBe(false);
  });

  it('keeps a TaskManager that sends heartbeats and loses one that falls silent for the timeout', () => {
    const { clock, events, registry } = setup();
    const connection = new FakeConnection();
    const session = registry.register(registration('tm-1'), connection);
    for (let i = 0; i < 10; i++) {
      clock.advance(TIMEOUT - 1);
      session.received(heartbeat);
    }
    expect(events).toEqual(['registered tm-1 2@tm-1:7000']);
    clock.advance(TIMEOUT);
    expect(events).toEqual(['registered tm-1 2@tm-1:7000', 'lost tm-1: TaskManager tm-1 lost: heartbeat timeout [TASK_MANAGER_LOST]']);
    expect(isWeirError(connection.closedWith, 'TASK_MANAGER_LOST')).toBe(true);
    expect(registry.taskManagers()).toEqual([]);
    const sentBefore = connection.sent.length;
    clock.advance(INTERVAL * 5);
    expect(connection.sent).toHaveLength(sentBefore);
    session.closed();
    expect(events).toHaveLength(2);
  });

  it('probes every TaskManager with a liveness endpoint and loses one that leaves two probes in a row unanswered', async () => {
    const { clock, events, registry, probes } = setup();
    registry.register(registration('tm-0'), new FakeConnection());
    const connection = new FakeConnection();
    const session = registry.register(withLiveness('tm-1'), connection);
    expect(probes.sent.map((p) => p.address)).toEqual(['tm-1:7001']);
    await probes.latest.answer(20);
    clock.advance(INTERVAL);
    // Stopped (SIGSTOP): heartbeats it sent before prove nothing, only answers do.
    session.received(heartbeat);
    clock.advance(PROBE_TIMEOUT * 2);
    expect(events.slice(2)).toEqual(['lost tm-1: TaskManager tm-1 lost: no answer to liveness probes (2 in a row, each given 1s; the last: no answer within 1s) [TASK_MANAGER_LOST]']);
    expect(isWeirError(connection.closedWith, 'TASK_MANAGER_LOST')).toBe(true);
    expect(registry.taskManagers().map((tm) => tm.id)).toEqual(['tm-0']);
  });

  it('keeps a TaskManager that answers while its event loop is blocked, though its heartbeats stop', async () => {
    const { clock, events, registry, probes } = setup();
    const session = registry.register(withLiveness('tm-1'), new FakeConnection());
    // Blocked for 4.9 s, under the 5 s heartbeat timeout: nothing arrives on the stream.
    for (let blocked = 0; blocked < 4_000; blocked += INTERVAL) {
      await probes.latest.answer(blocked);
      clock.advance(INTERVAL);
    }
    await probes.latest.answer(4_000);
    clock.advance(900);
    session.received(heartbeat);
    clock.advance(100);
    await probes.latest.answer(30);
    clock.advance(INTERVAL);
    expect(events).toEqual(['registered tm-1 2@tm-1:7000']);
  });

  it('loses a TaskManager whose event loop stays blocked for heartbeat.timeout, naming the block', async () => {
    const { clock, events, registry, probes } = setup();
    registry.register(withLiveness('tm-1'), new FakeConnection());
    for (let blocked = 0; blocked < TIMEOUT; blocked += INTERVAL) {
      await probes.latest.answer(blocked + 200);
      clock.advance(INTERVAL);
    }
    // The heartbeat timeout ran out first; the liveness answers explain the silence.
    expect(events.slice(1)).toEqual(['lost tm-1: TaskManager tm-1 lost: event loop blocked for 5.2 s, and no heartbeat for heartbeat.timeout (5s) [TASK_MANAGER_LOST]']);
  });

  it('loses a blocked TaskManager on the answer that shows heartbeat.timeout passed, if that comes first', async () => {
    const { events, registry, probes } = setup();
    registry.register(withLiveness('tm-1'), new FakeConnection());
    await probes.latest.answer(TIMEOUT + 300);
    expect(events.slice(1)).toEqual(['lost tm-1: TaskManager tm-1 lost: event loop blocked for 5.3 s, past heartbeat.timeout (5s) [TASK_MANAGER_LOST]']);
  });

  it('probes a TaskManager another one could not reach at once, names the report if it is lost, and ignores reports about unknown ones', async () => {
    const { clock, events, registry, probes } = setup();
    const reporter = registry.register(withLiveness('tm-1'), new FakeConnection());
    registry.register(withLiveness('tm-2'), new FakeConnection());
    await probes.sent[0]!.answer(10);
    await probes.sent[1]!.answer(10);
    const unreachable = { kind: 'peerUnreachable' as const, peerUnreachable: { dataAddress: 'tm-2:7000', cause: 'cannot reach the peer at tm-2:7000: keepalive timeout' } };
    reporter.received({ kind: 'peerUnreachable', peerUnreachable: { dataAddress: 'tm-9:7000', cause: 'gone' } });
    reporter.received(unreachable);
    reporter.received(unreachable);
    expect(probes.sent.map((p) => p.address)).toEqual(['tm-1:7001', 'tm-2:7001', 'tm-2:7001']);
    await probes.latest.fail('connect ECONNREFUSED 127.0.0.1:7001');
    clock.advance(PROBE_TIMEOUT);
    expect(events.slice(2)).toEqual([
      "lost tm-2: TaskManager tm-2 lost: no answer to liveness probes (2 in a row, each given 1s; the last: no answer within 1s) after TaskManager tm-1 could not reach it ('cannot reach the peer at tm-2:7000: keepalive timeout') [TASK_MANAGER_LOST]",
    ]);
  });

  it('loses a TaskManager whose stream closes', () => {
    const { events, registry } = setup();
    const session = registry.register(registration('tm-1'), new FakeConnection());
    session.closed();
    session.closed();
    expect(events).toEqual(['registered tm-1 2@tm-1:7000', 'lost tm-1: TaskManager tm-1 lost: connection closed [TASK_MANAGER_LOST]']);
  });

  it('refuses a registration under the ID of a live TaskManager, which keeps its registration', () => {
    const { clock, events, registry } = setup();
    const live = new FakeConnection();
    const session = registry.register(registration('tm-1', 2), live);
    clock.advance(INTERVAL * 3);
    session.received(heartbeat);
    clock.advance(INTERVAL);
    try {
      registry.register({ ...registration('tm-1', 64), dataAddress: 'rogue:7000' }, new FakeConnection());
      expect.unreachable();
    } catch (err) {
      expect(isWeirError(err, 'TASK_MANAGER_ID_IN_USE')).toBe(true);
      expect((err as Error).message).toBe(
        "TaskManager ID 'tm-1' is in use by a live TaskManager (heard from 1000 ms ago); give this one another taskmanager.resource-id, or stop the other one first",
      );
    }
    expect(events).toEqual(['registered tm-1 2@tm-1:7000']);
    expect(live.closedWith).toBeUndefined();
    expect(registry.taskManagers()).toEqual([{ id: 'tm-1', dataAddress: 'tm-1:7000', slots: 2, pid: 42, livenessAddress: '' }]);
  });

  it('replaces a registration with the same ID that went quiet for two heartbeat intervals, losing the old one first', () => {
    const { clock, events, registry } = setup();
    const old = new FakeConnection();
    const oldSession = registry.register(registration('tm-1', 2), old);
    clock.advance(INTERVAL * 2);
    const fresh = new FakeConnection();
    registry.register(registration('tm-1', 4), fresh);
    oldSession.closed();
    expect(events).toEqual([
      'registered tm-1 2@tm-1:7000',
      'lost tm-1: TaskManager tm-1 lost: registered again [TASK_MANAGER_LOST]',
      'registered tm-1 4@tm-1:7000',
    ]);
    expect((old.closedWith as WeirError).message).toBe('TaskManager tm-1 lost: registered again');
    expect(fresh.closedWith).toBeUndefined();
    expect(registry.taskManagers()).toEqual([{ id: 'tm-1', dataAddress: 'tm-1:7000', slots: 4, pid: 42, livenessAddress: '' }]);
  });

  it('passes task status updates on and counts them as signs of life', () => {
    const { clock, events, updates, registry } = setup();
    const session = registry.register(registration('tm-1'), new FakeConnection());
    const update = { task: { jobId: 'j', attempt: 0, vertexId: 'v', subtaskIndex: 0 }, state: 'RUNNING', failureCause: '', failureCode: '' };
    clock.advance(TIMEOUT - 1);
    session.received({ kind: 'taskStatus', taskStatus: update });
    clock.advance(TIMEOUT - 1);
    expect(events).toEqual(['registered tm-1 2@tm-1:7000', 'status from tm-1']);
    expect(updates).toEqual([update]);
  });

  it('passes checkpoint acknowledgements, declines and ends of input on', () => {
    const { events, registry } = setup();
    const session = registry.register(registration('tm-1'), new FakeConnection());
    const task = { jobId: 'j', attempt: 0, vertexId: 'v', subtaskIndex: 0 };
    session.received({ kind: 'acknowledgeCheckpoint', acknowledgeCheckpoint: { task, checkpointId: 3, state: Buffer.from('{}'), metrics: null } });
    session.received({ kind: 'declineCheckpoint', declineCheckpoint: { task, checkpointId: 4, reasonCode: 'CHECKPOINT_DECLINED', message: 'no' } });
    session.received({ kind: 'awaitingFinalCheckpoint', awaitingFinalCheckpoint: { task, lastCheckpointBeforeEnd: 3 } });
    expect(events).toEqual(['registered tm-1 2@tm-1:7000', 'ack 3 from tm-1', 'decline 4 from tm-1: CHECKPOINT_DECLINED', 'awaiting final checkpoint after 3 from tm-1']);
  });

  it('refuses a registration without ID, data address or slots', () => {
    const { events, registry } = setup();
    try {
      registry.register({ taskManagerId: '', dataAddress: '', slots: 0, pid: 1, leaderEpoch: 0, livenessAddress: '' }, new FakeConnection());
      expect.unreachable();
    } catch (err) {
      expect(isWeirError(err, 'INVALID_REGISTRATION')).toBe(true);
      expect((err as Error).message).toBe(
        'invalid TaskManager registration: task_manager_id is empty; data_address is empty (it must be the host:port of the DataExchange service); slots is 0 (a TaskManager must offer at least one slot)',
      );
    }
    expect(events).toEqual([]);
  });

  it.each([
    '127.0.0.1:18099/internal/admin?action=x&',
    'http://127.0.0.1:18099',
    'user@127.0.0.1:18099',
    '127.0.0.1:18099?x',
    '127.0.0.1',
    '127.0.0.1:0',
    '127.0.0.1:70000',
    '[::1:18099',
  ])('refuses the liveness address %s, which is not host:port', (livenessAddress) => {
    const { events, registry } = setup();
    try {
      registry.register({ ...registration('tm-1'), livenessAddress }, new FakeConnection());
      expect.unreachable();
    } catch (err) {
      expect(isWeirError(err, 'INVALID_REGISTRATION')).toBe(true);
      expect((err as Error).message).toBe(
        `invalid TaskManager registration: liveness_address '${livenessAddress}' is not host:port (the JobManager builds the probe's URL itself; a path, query, user or scheme is refused)`,
      );
    }
    expect(events).toEqual([]);
  });

  it.each(['tm-1:7001', '10.0.0.8:7001', '[::1]:7001', 'weir_taskmanager_1.local:65535'])('takes the liveness address %s', (livenessAddress) => {
    const { registry } = setup();
    registry.register({ ...registration('tm-1'), livenessAddress }, new FakeConnection());
    expect(registry.taskManagers()[0]?.livenessAddress).toBe(livenessAddress);
  });

  it('closes every stream on shutdown without reporting losses', () => {
    const { clock, events, registry } = setup();
    const connection = new FakeConnection();
    const session = registry.register(registration('tm-1'), connection);
    registry.close();
    expect(connection.closedWith).toBe('no error');
    session.closed();
    clock.advance(TIMEOUT * 2);
    expect(events).toEqual(['registered tm-1 2@tm-1:7000']);
  });
});
