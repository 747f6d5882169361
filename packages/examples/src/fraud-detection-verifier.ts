import { LARGE_AMOUNT_CENTS, SMALL_AMOUNT_CENTS, alert, transaction } from '../jobs/fraud-detection.ts';

/**
 * The alerts the fraud-detection example must commit for `count` transactions, sorted, by the
 * walkthrough's rule applied to each account's transactions in order: a transaction over
 * 500.00 right after one under 1.00. Every account has a transaction every few milliseconds
 * of a run, so the one-minute timer never ends a flag before the account's next transaction.
 */
export function expectedAlerts(count: number): string[] {
  const lastWasSmall = new Map<number, boolean>();
  const alerts: string[] = [];
  for (let id = 0; id < count; id++) {
    const t = transaction(id);
    if (lastWasSmall.get(t.accountId) === true && t.cents > LARGE_AMOUNT_CENTS) alerts.push(alert(t));
    lastWasSmall.set(t.accountId, t.cents < SMALL_AMOUNT_CENTS);
  }
  return alerts.sort();
}
