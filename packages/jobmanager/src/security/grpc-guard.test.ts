import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '@weir/common';
import { recordingLogger } from '@weir/common/testing';
import { createJobServiceClient, fromServiceError, grpc, type JobServiceClient } from '@weir/rpc';
import { tokensFileLine } from '@weir/security';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startJobManager, type JobManagerHandle } from '../job-manager.ts';

const bundle = Buffer.from(`
exports.default = function numbers(env) {
  env.fromElements(1, 2, 3).uid('numbers').sinkTo({ createWriter: () => ({ write() {}, flush() {}, close() {} }) }).name('Discard');
};
`);

/** Calls `method` as `who` (a token of the tokens file below, or none); resolves with the answer or the WeirError code. */
function as<Req, Res>(who: string | undefined, method: (request: Req, metadata: grpc.Metadata, callback: (err: grpc.ServiceError | null, response?: Res) => void) => unknown, request: Req): Promise<Res | string> {
  const metadata = new grpc.Metadata();
  if (who !== undefined) metadata.set('authorization', `Bearer token-of-${who}`);
  return new Promise((resolve) => method(request, metadata, (err, response) => resolve(err ? fromServiceError(err).code : response!)));
}

describe('the JobService with authentication (tokens file)', () => {
  let jm: JobManagerHandle;
  let jobs: JobServiceClient;
  let audit: () => string[];

  beforeEach(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weir-grpc-guard-'));
    await writeFile(join(dir, 'tokens'), ['alice submitter', 'bob submitter', 'vic viewer'].map((line) => { const [name, role] = line.split(' '); return tokensFileLine(`token-of-${name}`, role!, name!); }).join(''));
    const { logger, entries } = recordingLogger();
    audit = () => entries.filter((e) => e.fields['audit'] === true).map((e) => e.message.replace(/[0-9a-f]{32}/g, '<job>'));
    jm = await startJobManager(
      { ...defaultConfig(), 'jobmanager.bind-host': '127.0.0.1', 'jobmanager.rpc.port': 0, 'rest.bind-address': '127.0.0.1', 'rest.port': 0, 'blob.storage.directory': join(dir, 'blobs'), 'security.auth.tokens-file': join(dir, 'tokens') },
      { logger },
    );
    jobs = createJobServiceClient(`127.0.0.1:${jm.port}`);
  });

  afterEach(async () => {
    jobs.close();
    await jm.close();
  });

  it('refuses callers without a known token, lets each role do what it may, records the owner and audits every change', async () => {
    const submit = (who: string | undefined) => as(who, jobs.SubmitJob.bind(jobs), { bundle, entryName: 'numbers.js', args: [], parallelism: 1 });
    expect(await submit(undefined)).toBe('UNAUTHENTICATED');
    expect(await submit('mallory')).toBe('UNAUTHENTICATED');
    expect(await submit('vic')).toBe('PERMISSION_DENIED');
    const submitted = await submit('alice');
    expect(submitted).toMatchObject({ jobId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const jobId = (submitted as { jobId: string }).jobId;
    expect(await as('vic', jobs.ListJobs.bind(jobs), {})).toMatchObject({ jobs: [{ jobId }] });
    expect(await as(undefined, jobs.ListJobs.bind(jobs), {})).toBe('UNAUTHENTICATED');
    expect(await as('bob', jobs.CancelJob.bind(jobs), { jobId })).toBe('PERMISSION_DENIED');
    expect(await as('bob', jobs.TriggerSavepoint.bind(jobs), { jobId, targetDirectory: '', terminate: 'STOP', drain: false })).toBe('PERMISSION_DENIED');
    // A query's rows are its submitter's: another submitter is refused, and that refusal is audited (the fetches themselves are not).
    expect(await as('bob', jobs.FetchResults.bind(jobs), { jobId, maxRows: 0 })).toBe('PERMISSION_DENIED');
    expect(await as('alice', jobs.CancelJob.bind(jobs), { jobId })).toMatchObject({ status: expect.any(String) });
    expect(audit()).toEqual([
      'audit: unauthenticated submit: refused: this cluster needs a token: set WEIR_TOKEN or pass --token-file <file> (REST: an Authorization: Bearer <token> header) [UNAUTHENTICATED]',
      'audit: unauthenticated submit: refused: the token is not one this cluster knows (not in its tokens file, or revoked) [UNAUTHENTICATED]',
      "audit: vic submit: refused: 'vic' (role viewer) may not run jobs: that takes the submitter or admin role",
      'audit: alice submit <job>: ok',
      "audit: bob cancel <job>: refused: 'bob' (role submitter) may cancel only the jobs it submitted (this one was submitted by token:alice): another's job takes the operator or admin role",
      "audit: bob stop <job>: refused: 'bob' (role submitter) may stop only the jobs it submitted (this one was submitted by token:alice): another's job takes the operator or admin role",
      "audit: bob read-results <job>: refused: 'bob' (role submitter) may read only the results of the jobs it submitted (this one was submitted by token:alice)",
      'audit: alice cancel <job>: ok',
    ]);
  });
});
