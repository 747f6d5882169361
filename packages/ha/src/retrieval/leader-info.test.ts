import { describe, expect, it } from 'vitest';
import { decodeLeader, encodeLeader } from './leader-info.ts';

describe('the leader record', () => {
  it('reads back what the leader writes: gRPC address, epoch and REST URL', () => {
    const leader = { address: '10.0.0.7:6123', epoch: 42, restUrl: 'http://10.0.0.7:8081' };
    expect(decodeLeader(encodeLeader(leader))).toEqual(leader);
  });

  it("is a leader without a REST URL (an older Weir's record), so TaskManagers still follow it", () => {
    expect(decodeLeader('{"address":"jm:6123","epoch":7}')).toEqual({ address: 'jm:6123', epoch: 7 });
    expect(encodeLeader({ address: 'jm:6123', epoch: 7 })).toBe('{"address":"jm:6123","epoch":7}');
  });

  it.each([
    ['not JSON', 'jm:6123'],
    ['not an object', '"jm:6123"'],
    ['null', 'null'],
    ['no address', '{"epoch":1}'],
    ['an empty address', '{"address":"","epoch":1}'],
    ['an epoch that is not a number', '{"address":"jm:6123","epoch":"1"}'],
    ['an epoch of 0', '{"address":"jm:6123","epoch":0}'],
    ['a fractional epoch', '{"address":"jm:6123","epoch":1.5}'],
    ['a REST URL that is not a string', '{"address":"jm:6123","epoch":1,"restUrl":8081}'],
    ['a REST URL that is not a URL', '{"address":"jm:6123","epoch":1,"restUrl":"http://jm 1:8081"}'],
    ['a REST URL that is not http', '{"address":"jm:6123","epoch":1,"restUrl":"file:///etc/passwd"}'],
  ])('is not a leader with %s', (_what, value) => {
    expect(decodeLeader(value)).toBeUndefined();
  });
});
