import { describe, expect, it } from 'vitest';
import { mayControlJob, type WhoAmI } from './permissions.ts';

const as = (role: WhoAmI['role'], name = 'alice'): WhoAmI => ({ authentication: true, name, role, via: 'token', principal: `token:${name}` });

describe('mayControlJob', () => {
  it("lets operators and admins control any job, a submitter only its own, a viewer none", () => {
    expect(mayControlJob(as('admin'), 'token:bob')).toBe(true);
    expect(mayControlJob(as('operator'), null)).toBe(true);
    expect(mayControlJob(as('submitter'), 'token:alice')).toBe(true);
    expect(mayControlJob(as('submitter'), 'token:bob')).toBe(false);
    // The same name known another way is another principal, as the JobManager compares them.
    expect(mayControlJob(as('submitter'), 'jwt:alice')).toBe(false);
    expect(mayControlJob(as('submitter'), null)).toBe(false);
    expect(mayControlJob(as('viewer'), 'token:alice')).toBe(false);
  });

  it('shows every button without authentication (the anonymous admin)', () => {
    expect(mayControlJob({ authentication: false, name: 'anonymous', role: 'admin', via: 'anonymous', principal: 'anonymous:anonymous' }, null)).toBe(true);
  });
});
