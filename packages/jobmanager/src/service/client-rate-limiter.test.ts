import { describe, expect, it } from 'vitest';
import { isWeirError } from '@weir/common';
import { ManualClock } from '@weir/common/testing';
import { ClientRateLimiter, peerAddress, rateLimitKey } from './client-rate-limiter.ts';

function refusal(limiter: ClientRateLimiter, client: string): string {
  try {
    limiter.take(client, 'SubmitJob');
  } catch (err) {
    expect(isWeirError(err, 'RATE_LIMITED')).toBe(true);
    return (err as Error).message;
  }
  throw new Error(`${client} was not limited`);
}

describe('ClientRateLimiter', () => {
  it('lets each client make perMinute requests at once, then one more per 60/perMinute seconds', () => {
    const clock = new ManualClock();
    const limiter = new ClientRateLimiter(3, clock);
    for (let i = 0; i < 3; i++) limiter.take('10.0.0.1', 'SubmitJob');
    expect(refusal(limiter, '10.0.0.1')).toBe(
      'too many requests from 10.0.0.1: SubmitJob is refused; at most 3 job submissions and savepoint triggers per minute per client (jobmanager.client.max-requests-per-minute), try again in 20 s',
    );
    // Another client has a budget of its own.
    limiter.take('10.0.0.2', 'SubmitJob');
    clock.advance(19_999);
    refusal(limiter, '10.0.0.1');
    clock.advance(1);
    limiter.take('10.0.0.1', 'SubmitJob');
    refusal(limiter, '10.0.0.1');
  });

  it('limits nothing at 0', () => {
    const limiter = new ClientRateLimiter(0, new ManualClock());
    for (let i = 0; i < 1_000; i++) limiter.take('10.0.0.1', 'SubmitJob');
  });

  it('keys a request by its authenticated principal, else by its address, an IPv6 address by its /64', () => {
    expect(rateLimitKey({ name: 'alice', role: 'submitter', via: 'token' }, '10.0.0.1')).toBe('token:alice');
    // The same name by a JWT is another caller with a budget of its own.
    expect(rateLimitKey({ name: 'alice', role: 'submitter', via: 'jwt' }, '10.0.0.1')).toBe('jwt:alice');
    expect(rateLimitKey({ name: 'anonymous', role: 'admin', via: 'anonymous' }, '10.0.0.1')).toBe('10.0.0.1');
    expect(rateLimitKey(undefined, '10.0.0.1')).toBe('10.0.0.1');
    expect(rateLimitKey(undefined, '::ffff:10.0.0.1')).toBe('10.0.0.1');
    // Every address of one /64 is one client: a host picks from its whole /64 at will.
    expect(rateLimitKey(undefined, '2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey(undefined, '2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey(undefined, '2001:0db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitKey(undefined, '::1')).toBe('0:0:0:0::/64');
    expect(rateLimitKey(undefined, 'fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('names the client by address, without the port', () => {
    expect(peerAddress('127.0.0.1:51234')).toBe('127.0.0.1');
    expect(peerAddress('ipv4:10.1.2.3:6123')).toBe('10.1.2.3');
    expect(peerAddress('[::1]:51234')).toBe('::1');
    expect(peerAddress('ipv6:[fe80::1]:6123')).toBe('fe80::1');
    expect(peerAddress('localhost')).toBe('localhost');
  });
});
