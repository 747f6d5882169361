import { describe, expect, it } from 'vitest';
import { CheckpointFailureReason, JobStatus, TaskState, WeirError } from '@weir/common';
import { cluster, pipeline } from '../testing/cluster.ts';
import { silentLogger } from '@weir/common/testing';
import { jobSpec } from '../testing/fixtures.ts';
import { settle, TIMEOUT } from '../testing/checkpointing-cluster.ts';
import { MemoryStorage } from '@weir/storage/testing';
import { AllowedPaths } from './allowed-paths.ts';
import { SavepointService } from './savepoint-service.ts';
import { SAVEPOINT_DIR, SAVEPOINT_URL, savepointCluster } from '../testing/savepoint-cluster.ts';

const TASKS = ['src#0', 'src#1', 'map#0', 'map#1', 'map#2', 'sink#0'];
const notified = (id: number, outcome: 'completed' | 'aborted') => TASKS.map((t) => `${id} ${outcome} ${t}`);
const PROBE = [`write ${SAVEPOINT_DIR}/.weir-write-probe`, `delete ${SAVEPOINT_DIR}/.weir-write-probe`];

describe('savepoints', () => {
  it('writes a savepoint into its own directory without retaining or committing it, and checkpoints go on after it', async () => {
    const c = savepointCluster();
    c.clock.advance(500);
    const savepoint = c.trigger();
    await settle();
    expect(c.savepoints.log).toEqual(PROBE);
    expect(c.triggerOptions()).toEqual([`1 SAVEPOINT//${SAVEPOINT_URL} src#0`, `1 SAVEPOINT//${SAVEPOINT_URL} src#1`]);
    c.clock.advance(500);
    expect(c.triggers()).toHaveLength(2);
    await c.ackSavepoint(1);
    await settle();
    expect(savepoint).toEqual({ settled: true, response: { savepointPath: SAVEPOINT_URL, checkpointId: 1 } });
    expect(c.savepoints.log.at(-1)).toBe(`writeAtomic ${SAVEPOINT_DIR}/_metadata`);
    const metadata = JSON.parse(c.savepoints.text(`${SAVEPOINT_DIR}/_metadata`));
    expect(metadata).toMatchObject({ version: 1, kind: 'savepoint', jobId: 'job-1', checkpointId: 1, timestamp: 1_500 });
    expect(metadata.operators[1].subtasks[2]).toEqual({ operator: [{ handle: { kind: 'file', path: 'op-map-2', size: 10 }, states: { list: { mode: 'split' } } }] });
    expect(c.notifications()).toEqual([]);
    expect(c.storage.paths()).toEqual([]);
    expect(c.master.checkpoints().checkpoints[0]).toMatchObject({
      checkpointId: 1,
      kind: 'SAVEPOINT',
      status: 'COMPLETED',
      externalPath: SAVEPOINT_URL,
      retained: false,
      acknowledged: 6,
      durationMs: 500,
    });
    c.clock.advance(1_000);
    expect(c.triggerOptions().slice(2)).toEqual(['2 plain src#0', '2 plain src#1']);
    await c.ackAll(2);
    await settle();
    expect(c.notifications()).toEqual(notified(2, 'completed'));
    expect(c.master.checkpoints().checkpoints.map((cp) => `${cp.checkpointId} ${cp.kind} ${cp.status} ${cp.retained}`)).toEqual([
      '2 CHECKPOINT COMPLETED true',
      '1 SAVEPOINT COMPLETED false',
    ]);
    expect(c.savepoints.paths()).toContain(`${SAVEPOINT_DIR}/_metadata`);
  });

  it('refuses a second savepoint while one is in progress, touching nothing', async () => {
    const c = savepointCluster();
    c.trigger();
    await settle();
    const second = c.trigger({ targetDirectory: 'memory://sp' });
    await settle();
    expect(second.error?.code).toBe('SAVEPOINT_IN_PROGRESS');
    expect(second.error?.message).toBe(
      `savepoint 1 of this job is still in progress (into ${SAVEPOINT_URL}); wait until it completes or fails, then trigger another`,
    );
    expect(c.savepoints.log).toEqual(PROBE);
    expect(c.triggers()).toHaveLength(2);
  });

  it('answers bad requests with a clear error before anything is written or triggered', async () => {
    const noDir = savepointCluster({}, '');
    const missing = noDir.trigger();
    await settle();
    expect(missing.error?.code).toBe('SAVEPOINT_DIR_MISSING');
    expect(missing.error?.message).toMatch(/^no savepoint directory: give one with the command .* or set state\.savepoints\.dir in the configuration$/);

    const c = savepointCluster();
    c.savepoints.fail('write', 'savepoint-', new WeirError('STORAGE_FAILURE', 'permission denied'));
    const unwritable = c.trigger();
    await settle();
    expect(unwritable.error?.code).toBe('SAVEPOINT_DIR_NOT_WRITABLE');
    expect(unwritable.error?.message).toBe(
      `cannot write the savepoint directory ${SAVEPOINT_URL}: permission denied [STORAGE_FAILURE]; the savepoint directory must be writable by the JobManager and the TaskManagers`,
    );
    c.savepoints.heal();
    const outside = c.trigger({ targetDirectory: 'memory://elsewhere' });
    const climbing = c.trigger({ targetDirectory: 'memory://sp/../elsewhere' });
    await settle();
    expect([outside, climbing].map((o) => o.error?.code)).toEqual(['PATH_NOT_ALLOWED', 'PATH_NOT_ALLOWED']);
    expect(outside.error?.message).toBe(
      'savepoint directory memory://elsewhere is outside the directories this JobManager allows: memory://sp (state.savepoints.dir, state.checkpoints.dir, state.savepoints.allowed-dirs); give a path below one of them',
    );
    await expect(c.service.dispose({ savepointPath: 'memory://elsewhere/savepoint-1' })).rejects.toMatchObject({ code: 'PATH_NOT_ALLOWED' });
    const unknownJob = c.trigger({ jobId: 'job-9' });
    const badMode = c.trigger({ terminate: 'PAUSE' });
    const drainOnly = c.trigger({ drain: true });
    await settle();
    expect([unknownJob, badMode, drainOnly].map((o) => o.error?.code)).toEqual(['JOB_NOT_FOUND', 'INVALID_SAVEPOINT_REQUEST', 'INVALID_SAVEPOINT_REQUEST']);
    expect(badMode.error?.message).toBe(`unknown savepoint terminate mode 'PAUSE'; use '' (the job goes on), CANCEL or STOP`);
    expect([...noDir.triggers(), ...c.triggers()]).toEqual([]);
    expect([...noDir.savepoints.paths(), ...c.savepoints.paths()]).toEqual([]);
    expect(c.master.status).toBe(JobStatus.RUNNING);
  });

  it('refuses jobs that are not running, whose tasks are not all running, or that take no checkpoints', async () => {
    const c = savepointCluster();
    c.report('job-1', 'tm-2', 'map#1', TaskState.FINISHED);
    const finishing = c.trigger();
    c.dispatcher.cancel('job-1');
    c.reportAll(TaskState.CANCELED);
    const canceled = c.trigger();
    await settle();
    expect(finishing.error?.code).toBe('JOB_NOT_RUNNING');
    expect(finishing.error?.message).toBe('not every task of the job is running (V-map (2/3) is FINISHED); a savepoint needs all of them, try again once they are RUNNING');
    expect(canceled.error?.code).toBe('JOB_NOT_RUNNING');
    expect(canceled.error?.message).toBe('job job-1 is CANCELED; a savepoint can only be taken of a RUNNING job');

    const plain = cluster({ 'tm-1': 4 });
    plain.dispatcher.submit(jobSpec(pipeline));
    const storage = new MemoryStorage('memory://sp');
    const service = new SavepointService({
      dispatcher: plain.dispatcher,
      defaultDirectory: 'memory://sp',
      openStorage: () => storage,
      allowedPaths: new AllowedPaths(['memory://sp']),
      metadataMaxBytes: 1024,
      logger: silentLogger(),
    });
    await expect(service.trigger({ jobId: 'job-1', targetDirectory: '', terminate: '', drain: false })).rejects.toMatchObject({
      code: 'SAVEPOINT_NOT_SUPPORTED',
      message: 'job job-1 takes no checkpoints, so it cannot take savepoints; enable checkpointing (env.enableCheckpointing or execution.checkpointing.interval) to take savepoints',
    });
    expect([...c.savepoints.paths(), ...storage.paths()]).toEqual([]);
  });

  it('fails a declined savepoint with the reason, deletes its directory, and leaves the job running without counting it', async () => {
    const c = savepointCluster();
    const declined = c.trigger();
    await settle();
    await c.savepoints.write(`${SAVEPOINT_DIR}/op-src-0`, Buffer.from('state'));
    c.acknowledge(1, 'src#0');
    c.decline(1, 'map#1', CheckpointFailureReason.SNAPSHOT_FAILED, 'snapshotState of sums threw');
    await settle();
    expect(declined.error?.code).toBe('SAVEPOINT_FAILED');
    expect(declined.error?.message).toBe('savepoint 1 failed: CHECKPOINT_SNAPSHOT_FAILED: V-map (2/3) declined checkpoint 1: snapshotState of sums threw');
    expect(c.notifications()).toEqual(notified(1, 'aborted'));
    expect(c.savepoints.paths()).toEqual([]);
    expect(c.master.status).toBe(JobStatus.RUNNING);
    expect(c.master.checkpoints().checkpoints[0]).toMatchObject({ checkpointId: 1, kind: 'SAVEPOINT', status: 'FAILED' });
    const again = c.trigger();
    await settle();
    expect(c.triggerOptions().slice(2)).toEqual([`2 SAVEPOINT//${SAVEPOINT_URL} src#0`, `2 SAVEPOINT//${SAVEPOINT_URL} src#1`]);
    expect(again.settled).toBe(false);
  });

  it('fails a savepoint that expires or whose job fails over', async () => {
    const c = savepointCluster();
    const expiring = c.trigger();
    await settle();
    c.clock.advance(TIMEOUT);
    await settle();
    expect(expiring.error?.message).toBe(
      'savepoint 1 failed: CHECKPOINT_EXPIRED: savepoint 1 expired after the checkpoint timeout of 10000 ms with 0 of 6 tasks acknowledged; still waiting for V-src (1/2), V-src (2/2), V-map (1/3), V-map (2/3), V-map (3/3), 1 more',
    );
    expect(c.master.status).toBe(JobStatus.RUNNING);
    const failingOver = c.trigger();
    await settle();
    c.report('job-1', 'tm-2', 'map#1', TaskState.FAILED, { cause: 'boom' });
    await settle();
    expect(failingOver.error?.message).toBe('savepoint 3 failed: CHECKPOINT_TASK_FAILURE: the job failed over while checkpoint 3 was pending');
  });

  it('stops a job: the savepoint is committed and retained, the final checkpoint follows at once, and the job finishes', async () => {
    const c = savepointCluster();
    const stop = c.trigger({ terminate: 'STOP' });
    await settle();
    expect(c.triggerOptions()).toEqual([`1 SAVEPOINT/SUSPEND/${SAVEPOINT_URL} src#0`, `1 SAVEPOINT/SUSPEND/${SAVEPOINT_URL} src#1`]);
    await c.ackSavepoint(1);
    await settle();
    expect(stop).toEqual({ settled: true, response: { savepointPath: SAVEPOINT_URL, checkpointId: 1 } });
    expect(c.notifications()).toEqual(notified(1, 'completed'));
    expect(c.triggerOptions().slice(2)).toEqual(['2 plain src#0', '2 plain src#1']);
    expect(c.master.checkpoints().checkpoints.map((cp) => `${cp.checkpointId} ${cp.kind} ${cp.status} ${cp.retained}`)).toEqual([
      '2 CHECKPOINT IN_PROGRESS false',
      '1 SAVEPOINT COMPLETED true',
    ]);
    const late = c.trigger();
    await settle();
    expect(late.error?.code).toBe('JOB_NOT_RUNNING');
    expect(late.error?.message).toBe('the job is stopping after its stop-with-savepoint (savepoint 1); its sources have ended, so no further savepoint can be taken');
    await c.ackAll(2);
    await settle();
    expect(c.notifications().slice(6)).toEqual(notified(2, 'completed'));
    c.reportAll(TaskState.FINISHED);
    expect(c.master.status).toBe(JobStatus.FINISHED);
    expect(c.savepoints.paths()).toContain(`${SAVEPOINT_DIR}/_metadata`);
  });

  it('stops with drain: the savepoint is the final checkpoint, nothing follows it', async () => {
    const c = savepointCluster();
    const stop = c.trigger({ terminate: 'STOP', drain: true });
    await settle();
    expect(c.triggerOptions()).toEqual([`1 SAVEPOINT/DRAIN/${SAVEPOINT_URL} src#0`, `1 SAVEPOINT/DRAIN/${SAVEPOINT_URL} src#1`]);
    await c.ackSavepoint(1);
    await settle();
    expect(stop.response?.checkpointId).toBe(1);
    expect(c.notifications()).toEqual(notified(1, 'completed'));
    expect(c.triggers()).toHaveLength(2);
    c.reportAll(TaskState.FINISHED);
    expect(c.master.status).toBe(JobStatus.FINISHED);
  });

  it('fails a failed stop over, since its sources may have ended: the job restarts from its checkpoints', async () => {
    const c = savepointCluster();
    const stop = c.trigger({ terminate: 'STOP' });
    await settle();
    c.decline(1, 'sink#0', CheckpointFailureReason.DECLINED, 'no');
    await settle();
    expect(stop.error?.code).toBe('SAVEPOINT_FAILED');
    expect(c.master.status).toBe(JobStatus.FAILING);
    c.reportAll(TaskState.CANCELED);
    expect(c.master.status).toBe(JobStatus.FAILED);
    expect(c.master.failureCause).toBe(
      'stop-with-savepoint failed (savepoint 1 failed: CHECKPOINT_DECLINED: V-sink (1/1) declined checkpoint 1: no); the sources may have ended already, so the job restarts from its latest checkpoint to run on',
    );
  });

  it('cancels a job after its savepoint is written, without committing the savepoint', async () => {
    const c = savepointCluster();
    const cancel = c.trigger({ terminate: 'CANCEL' });
    await settle();
    expect(c.triggerOptions()).toEqual([`1 SAVEPOINT//${SAVEPOINT_URL} src#0`, `1 SAVEPOINT//${SAVEPOINT_URL} src#1`]);
    await c.ackSavepoint(1);
    await settle();
    expect(cancel.response).toEqual({ savepointPath: SAVEPOINT_URL, checkpointId: 1 });
    expect(c.notifications()).toEqual([]);
    expect(c.master.status).toBe(JobStatus.CANCELLING);
    expect(c.gateway.canceled()).toHaveLength(6);
    c.reportAll(TaskState.CANCELED);
    expect(c.master.status).toBe(JobStatus.CANCELED);
    expect(c.savepoints.paths()).toContain(`${SAVEPOINT_DIR}/_metadata`);
  });
});
