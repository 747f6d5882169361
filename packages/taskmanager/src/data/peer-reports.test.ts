import { describe, expect, it } from 'vitest';
import { ManualClock, silentLogger } from '@weir/common/testing';
import { PeerReports } from './peer-reports.ts';

describe('PeerReports', () => {
  it('passes each peer on once every 5 s, and no address no TaskManager could have', () => {
    const clock = new ManualClock();
    const reports: string[] = [];
    const peers = new PeerReports(silentLogger(), (peer, cause) => reports.push(`${peer}: ${cause}`), () => clock.now());
    peers.unreachable('tm-a:1', 'first');
    peers.unreachable('tm-a:1', 'second');
    peers.unreachable('tm-b:1', 'other');
    peers.unreachable('', 'a consumer that sent no address');
    peers.unreachable('x'.repeat(256), 'too long');
    clock.advance(4_999);
    peers.unreachable('tm-a:1', 'still within 5 s');
    clock.advance(1);
    peers.unreachable('tm-a:1', 'again');
    expect(reports).toEqual(['tm-a:1: first', 'tm-b:1: other', 'tm-a:1: again']);
  });
});
