import { describe, expect, it } from 'vitest';
import { closestKey } from './closest-key.ts';

const keys = ['heartbeat.interval', 'heartbeat.timeout', 'jobmanager.rpc.port', 'taskmanager.numberOfTaskSlots'];

describe('closestKey', () => {
  it.each([
    ['heartbeat.timout', 'heartbeat.timeout'],
    ['heartbeat.intreval', 'heartbeat.interval'],
    ['jobmanager.rpc.prot', 'jobmanager.rpc.port'],
    ['taskmanager.numberoftaskslots', 'taskmanager.numberOfTaskSlots'],
  ])('suggests %s → %s', (input, expected) => {
    expect(closestKey(input, keys)).toBe(expected);
  });

  it('suggests nothing for a key unlike any known one', () => {
    expect(closestKey('state.backend', keys)).toBeUndefined();
  });
});
