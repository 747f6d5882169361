import type { LeaderContender } from '../election/leader-election.ts';
import type { LeadershipTerm } from '../election/leadership-term.ts';

/** A LeaderContender that records its terms, for tests. */
export class RecordingContender implements LeaderContender {
  readonly granted: LeadershipTerm[] = [];
  readonly revoked: { epoch: number; reason: string }[] = [];

  async grantLeadership(term: LeadershipTerm): Promise<void> {
    this.granted.push(term);
  }

  revokeLeadership(term: LeadershipTerm, reason: string): void {
    this.revoked.push({ epoch: term.epoch, reason });
  }

  get leading(): LeadershipTerm | undefined {
    const term = this.granted.at(-1);
    return term !== undefined && !this.revoked.some((r) => r.epoch === term.epoch) ? term : undefined;
  }
}
