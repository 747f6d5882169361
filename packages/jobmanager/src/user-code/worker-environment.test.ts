import { describe, expect, it } from 'vitest';
import { jobWorkerEnvironment } from './worker-environment.ts';

describe('jobWorkerEnvironment', () => {
  it("keeps the JobManager's secrets and config out of a job's worker", () => {
    expect(
      jobWorkerEnvironment({
        PATH: '/usr/bin',
        TZ: 'UTC',
        WEIR_LOG_LEVEL: 'warn',
        WEIR_S3_SECRET_KEY: 'hunter2',
        WEIR_S3_ACCESS_KEY: 'AKIA',
        AWS_SECRET_ACCESS_KEY: 'x',
        PGPASSWORD: 'y',
        HOME: undefined,
      }),
    ).toEqual({ PATH: '/usr/bin', TZ: 'UTC', WEIR_LOG_LEVEL: 'warn' });
  });
});
