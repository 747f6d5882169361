import { describe, expect, it } from 'vitest';
import { isWeirError, type WeirError } from '@weir/common';
import { ManualClock } from '@weir/common/testing';
import type { RegisterTaskManager__Output, TaskStatusUpdate__Output } from '@weir/rpc';
import { silentLogger } from '@weir/common/testing';
import { FakeConnection } from '../testing/fixtures.ts';
import { TaskManagerRegistry } from './task-manager-registry.ts';

const INTERVAL = 1_000;
const TIMEOUT = 5_000;
const PROBE_TIMEOUT = 1_000;

function setup() {
  const clock = new ManualClock();
  const events: string[] = [];
  const updates: TaskStatusUpdate__Output[] = [];
  const registry = new TaskManagerRegistry({ clock, intervalMs: INTERVAL, timeoutMs: TIMEOUT, probeTimeoutMs: PROBE_TIMEOUT }, silentLogger(), {
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
  });
  return { clock, events, updates, registry };
}

function registration(id: string, slots = 2): RegisterTaskManager__Output {
  return { taskManagerId: id, dataAddress: `${id}:7000`, slots, pid: 42, leaderEpoch: 0 };
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

  it('probes a TaskManager another one could not reach, and loses it at once when it does not answer', () => {
    const { clock, events, registry } = setup();
    const reporter = registry.register(registration('tm-1'), new FakeConnection());
    const hungConnection = new FakeConnection();
    const hung = registry.register(registration('tm-2'), hungConnection);
    const unreachable = { kind: 'peerUnreachable' as const, peerUnreachable: { dataAddress: 'tm-2:7000', cause: 'cannot reach the peer at tm-2:7000: keepalive timeout' } };
    reporter.received(unreachable);
    reporter.received(unreachable);
    expect(hungConnection.sent.filter((m) => m.probe !== undefined)).toEqual([{ probe: { nonce: 1 } }]);
    // What it sent before it hung proves nothing: only the answer to the probe does.
    hung.received(heartbeat);
    clock.advance(PROBE_TIMEOUT);
    expect(events.slice(2)).toEqual([
      'lost tm-2: TaskManager tm-2 lost: no answer to a probe within 1s after TaskManager tm-1 could not reach it (\'cannot reach the peer at tm-2:7000: keepalive timeout\') [TASK_MANAGER_LOST]',
    ]);
    expect(registry.taskManagers().map((tm) => tm.id)).toEqual(['tm-1']);
  });

  it('keeps a probed TaskManager that answers, and ignores reports about unknown ones', () => {
    const { clock, events, registry } = setup();
    const reporter = registry.register(registration('tm-1'), new FakeConnection());
    const connection = new FakeConnection();
    const peer = registry.register(registration('tm-2'), connection);
    reporter.received({ kind: 'peerUnreachable', peerUnreachable: { dataAddress: 'tm-9:7000', cause: 'gone' } });
    reporter.received({ kind: 'peerUnreachable', peerUnreachable: { dataAddress: 'tm-2:7000', cause: 'reset' } });
    peer.received({ kind: 'probeAck', probeAck: { nonce: 1 } });
    clock.advance(PROBE_TIMEOUT * 3);
    peer.received(heartbeat);
    expect(events).toEqual(['registered tm-1 2@tm-1:7000', 'registered tm-2 2@tm-2:7000']);
  });

  it('loses a TaskManager whose stream closes', () => {
    const { events, registry } = setup();
    const session = registry.register(registration('tm-1'), new FakeConnection());
    session.closed();
    session.closed();
    expect(events).toEqual(['registered tm-1 2@tm-1:7000', 'lost tm-1: TaskManager tm-1 lost: connection closed [TASK_MANAGER_LOST]']);
  });

  it('replaces a registration with the same ID, losing the old one first', () => {
    const { events, registry } = setup();
    const old = new FakeConnection();
    const oldSession = registry.register(registration('tm-1', 2), old);
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
    expect(registry.taskManagers()).toEqual([{ id: 'tm-1', dataAddress: 'tm-1:7000', slots: 4, pid: 42 }]);
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
      registry.register({ taskManagerId: '', dataAddress: '', slots: 0, pid: 1, leaderEpoch: 0 }, new FakeConnection());
      expect.unreachable();
    } catch (err) {
      expect(isWeirError(err, 'INVALID_REGISTRATION')).toBe(true);
      expect((err as Error).message).toBe(
        'invalid TaskManager registration: task_manager_id is empty; data_address is empty (it must be the host:port of the DataExchange service); slots is 0 (a TaskManager must offer at least one slot)',
      );
    }
    expect(events).toEqual([]);
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
