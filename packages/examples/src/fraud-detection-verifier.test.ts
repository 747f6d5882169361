import { describe, expect, it } from 'vitest';
import { transaction } from '../jobs/fraud-detection.ts';
import { expectedAlerts } from './fraud-detection-verifier.ts';

describe('expectedAlerts', () => {
  it('finds a large transaction right after a small one of the same account, and only then', () => {
    const alerts = expectedAlerts(2_000);
    expect(alerts.length).toBeGreaterThan(10);
    for (const line of alerts) {
      const id = Number(/transaction (\d+)/.exec(line)![1]);
      const t = transaction(id);
      expect(t.cents).toBeGreaterThan(50_000);
      // The account's previous transaction is 5 ids earlier (five accounts in turn).
      expect(transaction(id - 5).cents).toBeLessThan(100);
    }
  });

  it('generates the same transactions in every run, with amounts of every kind', () => {
    const amounts = Array.from({ length: 1_000 }, (_, i) => transaction(i).cents);
    expect(transaction(42)).toEqual(transaction(42));
    expect(amounts.filter((c) => c < 100).length).toBeGreaterThan(80);
    expect(amounts.filter((c) => c > 50_000).length).toBeGreaterThan(100);
  });
});
