import { describe, expect, it, vi } from 'vitest';
import { loadJobBundle } from './bundle.ts';
import { isWeirError } from './errors.ts';

const api = { marker: 'api' };

describe('loadJobBundle', () => {
  it('returns the default export and injects provided modules', () => {
    const main = loadJobBundle<{ seen?: unknown }>(
      `const api = require('@weir/api'); const path = require('node:path');
       exports.default = function (env) { env.seen = [api.marker, path.sep]; };`,
      'job.js',
      { '@weir/api': api },
    );
    const env: { seen?: unknown } = {};
    main(env, []);
    expect(env.seen).toEqual(['api', '/']);
  });

  it.each([
    ['syntax', 'exports.default = function (', 'is not valid JavaScript'],
    ['no default', 'exports.other = 1;', 'has no default export function'],
    ['throws', 'throw new Error("boom")', 'threw while loading: boom'],
    ['missing module', 'require("left-pad")', "requires 'left-pad'"],
  ])('rejects a bundle with %s with INVALID_JOB', (_name, code, message) => {
    try {
      loadJobBundle(code, 'job.js', { '@weir/api': api });
      expect.unreachable();
    } catch (err) {
      expect(isWeirError(err, 'INVALID_JOB')).toBe(true);
      expect((err as Error).message).toContain(message);
    }
  });
});

describe('loadJobBundle and process.exit (cluster.intercept-user-system-exit)', () => {
  const exiting = `exports.default = function (env, args) { if (args[0] === 'require') require('node:process').exit(3); else process.exit(3); };`;

  it("THROW (the default): the job's process.exit throws USER_SYSTEM_EXIT, from the global and from require", () => {
    const main = loadJobBundle(exiting, 'job.js', {});
    for (const how of ['free', 'require']) {
      try {
        main({}, [how]);
        expect.unreachable();
      } catch (err) {
        expect(isWeirError(err, 'USER_SYSTEM_EXIT')).toBe(true);
        expect((err as Error).message).toBe(
          "the job's code called process.exit(3): a job may not end the process it runs in, with every other job there, so the call throws instead (cluster.intercept-user-system-exit: THROW); to fail the job, throw an error",
        );
      }
    }
  });

  it('the rest of process is the real one, and Weir code keeps the real exit', () => {
    const main = loadJobBundle<{ seen?: unknown }>(
      `exports.default = function (env) { env.seen = [process.pid, process.env.HOME, typeof process.hrtime.bigint(), process.listenerCount('exit') >= 0, process.memoryUsage().rss > 0]; };`,
      'job.js',
      {},
    );
    const env: { seen?: unknown } = {};
    main(env, []);
    expect(env.seen).toEqual([process.pid, process.env.HOME, 'bigint', true, true]);
    expect(process.exit.name).not.toBe('intercepted');
  });

  it('LOG warns and DISABLED passes the call on', () => {
    const warnings: string[] = [];
    const exit = vi.spyOn(process, 'exit').mockImplementation(() => undefined as never);
    try {
      loadJobBundle(exiting, 'job.js', {}, { systemExit: 'LOG', warn: (m) => warnings.push(m) })({}, []);
      loadJobBundle(exiting, 'job.js', {}, { systemExit: 'DISABLED', warn: (m) => warnings.push(m) })({}, []);
      expect(exit.mock.calls).toEqual([[3], [3]]);
      expect(warnings).toEqual(["the job's code called process.exit(3); the process ends (cluster.intercept-user-system-exit: LOG)"]);
    } finally {
      exit.mockRestore();
    }
  });
});
