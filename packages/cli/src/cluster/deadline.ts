import type { Clock, WeirError } from '@weir/common';

/** A promise that rejects with `error()` after `ms` unless cancelled first; for Promise.race. */
export function deadline(clock: Clock, ms: number, error: () => WeirError): { readonly expired: Promise<never>; cancel(): void } {
  let cancel = (): void => {};
  const expired = new Promise<never>((_resolve, reject) => {
    const timer = clock.setTimeout(() => reject(error()), ms);
    cancel = () => clock.clearTimeout(timer);
  });
  return { expired, cancel };
}
