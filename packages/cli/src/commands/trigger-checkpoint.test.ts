import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureContext } from '../testing/capture-context.ts';
import { startFakeJobService, type FakeJobService } from '../testing/fake-job-service.ts';
import { rejection } from '../testing/rejection.ts';
import { parseArgv } from '../testing/parse-argv.ts';
import { checkpointCommand } from './trigger-checkpoint.ts';

const JOB_ID = 'abcdef'.padEnd(32, '0');
let service: FakeJobService;

beforeEach(async () => {
  service = await startFakeJobService();
  service.details[JOB_ID] = { summary: { jobId: JOB_ID, name: 'sums', status: 'RUNNING' }, vertices: [] };
});

afterEach(async () => {
  await service.close();
});

const client = () => ({ dynamic: {}, jobManager: service.address });

describe('weir checkpoint', () => {
  it("asks for the job's configured kind and prints the completed checkpoint's ID and path", async () => {
    service.nextCheckpointId = 7;
    const context = captureContext();
    await checkpointCommand({ ...client(), jobId: JOB_ID, full: false }, context);
    expect(service.checkpointRequests).toEqual([{ jobId: JOB_ID, checkpointType: 'CONFIGURED' }]);
    expect(context.stdout).toEqual([`Checkpoint 7 completed. Path: file:///checkpoints/${JOB_ID}/chk-7`]);
  });

  it('asks for a FULL checkpoint with --full', async () => {
    await checkpointCommand({ ...client(), jobId: JOB_ID, full: true }, captureContext());
    expect(service.checkpointRequests[0]!.checkpointType).toBe('FULL');
  });

  it("passes the JobManager's error through", async () => {
    const error = await rejection(checkpointCommand({ ...client(), jobId: 'b'.repeat(32), full: false }, captureContext()));
    expect(error).toMatchObject({ code: 'JOB_NOT_FOUND' });
  });

  it('parses `weir checkpoint <jobId> [--full]`', () => {
    expect(parseArgv(['checkpoint', JOB_ID, '--full']).calls).toEqual([['checkpoint', expect.objectContaining({ jobId: JOB_ID, full: true })]]);
    expect(parseArgv(['checkpoint', JOB_ID]).calls).toEqual([['checkpoint', expect.objectContaining({ jobId: JOB_ID, full: false })]]);
  });
});
