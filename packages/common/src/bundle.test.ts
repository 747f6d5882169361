import { describe, expect, it } from 'vitest';
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
