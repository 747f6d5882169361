import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isWeirError, WeirError } from '@weir/common';
import { BundleCache } from './bundle-cache.ts';

const code = 'exports.default = function job() {};';
const bytes = Buffer.from(code, 'utf8');
const hash = createHash('sha256').update(bytes).digest('hex');

describe('BundleCache', () => {
  it('fetches a bundle once and serves it from memory after', async () => {
    const fetched: string[] = [];
    const cache = new BundleCache(async (h) => {
      fetched.push(h);
      return Uint8Array.from(bytes);
    });
    expect(await Promise.all([cache.get(hash), cache.get(hash)])).toEqual([code, code]);
    expect(await cache.get(hash)).toBe(code);
    expect(fetched).toEqual([hash]);
  });

  it('does not cache a failed fetch', async () => {
    let calls = 0;
    const cache = new BundleCache(async () => {
      calls++;
      if (calls === 1) throw new WeirError('UNAVAILABLE', 'cannot reach the peer at jm:6123: connection refused');
      return bytes;
    });
    const error = await cache.get(hash).catch((e: unknown) => e);
    expect(isWeirError(error, 'BUNDLE_FETCH_FAILED')).toBe(true);
    expect((error as Error).message).toBe(
      `cannot fetch job bundle ${hash} from the JobManager: cannot reach the peer at jm:6123: connection refused [UNAVAILABLE]`,
    );
    expect(await cache.get(hash)).toBe(code);
    expect(calls).toBe(2);
  });

  it('rejects bytes that do not hash to the requested value', async () => {
    const cache = new BundleCache(async () => Buffer.from('something else'));
    const error = await cache.get(hash).catch((e: unknown) => e);
    expect(isWeirError(error, 'BUNDLE_FETCH_FAILED')).toBe(true);
    expect((error as Error).message).toContain(`for ${hash}; the bytes must hash to the requested value`);
  });
});
