import { WeirError } from '@weir/common';
import { expect } from 'vitest';

/** The WeirError a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function rejection(promise: Promise<unknown>): Promise<WeirError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(WeirError);
    return err as WeirError;
  }
  throw new Error('expected a rejection with a WeirError');
}
