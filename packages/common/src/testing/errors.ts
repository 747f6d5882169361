import { isWeirError } from '../errors.ts';

/** The code and message of the WeirError `fn` throws; anything else, or nothing thrown, fails the test. */
export function errorOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (isWeirError(err)) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected a WeirError');
}

/** The code and message of the WeirError `promise` rejects with; anything else, or a resolve, fails the test. */
export async function rejectionOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const err = await promise.then(
    () => new Error('expected a rejection with a WeirError'),
    (e: unknown) => e,
  );
  if (isWeirError(err)) return { code: err.code, message: err.message };
  throw err;
}
