import { describe, expect, it } from 'vitest';
import { authorize, principalId, type Action, type Principal, type Role } from './roles.ts';

const as = (role: Role, name: string = role): Principal => ({ name, role, via: 'token' });
const allowed = (principal: Principal, action: Action, owner?: string) => authorize(principal, action, owner).allowed;

describe('authorize', () => {
  it('gives each role what it may do, and nothing more', () => {
    const actions: Action[] = ['read', 'read-results', 'submit', 'cancel', 'stop', 'savepoint', 'checkpoint', 'rescale', 'dispose-savepoint'];
    const table = Object.fromEntries((['viewer', 'submitter', 'operator', 'admin'] as const).map((role) => [role, actions.filter((a) => allowed(as(role), a, 'someone-else'))]));
    expect(table).toEqual({
      viewer: ['read'],
      submitter: ['read', 'submit'],
      operator: ['read', 'cancel', 'stop', 'savepoint', 'checkpoint', 'rescale', 'dispose-savepoint'],
      admin: actions,
    });
  });

  it('lets a submitter control its own jobs only, and says whose a job is', () => {
    const alice = as('submitter', 'alice');
    for (const action of ['cancel', 'stop', 'savepoint', 'checkpoint', 'rescale'] as const) expect(allowed(alice, action, 'token:alice'), action).toBe(true);
    expect(authorize(alice, 'cancel', 'token:bob')).toEqual({ allowed: false, reason: "'alice' (role submitter) may cancel only the jobs it submitted (this one was submitted by token:bob): another's job takes the operator or admin role" });
    // A job without a recorded owner (submitted before authentication was on, or recovered by a new leader) is not anyone's own.
    expect(allowed(alice, 'stop', undefined)).toBe(false);
  });

  it("lets only a query's submitter (and admin) read its rows, whatever the role", () => {
    for (const role of ['viewer', 'submitter', 'operator'] as const) expect(allowed(as(role, 'alice'), 'read-results', 'token:alice'), role).toBe(true);
    expect(authorize(as('operator', 'olga'), 'read-results', 'token:alice')).toEqual({ allowed: false, reason: "'olga' (role operator) may read only the results of the jobs it submitted (this one was submitted by token:alice)" });
    expect(allowed(as('submitter', 'alice'), 'read-results', undefined)).toBe(false);
    expect(allowed(as('admin'), 'read-results', 'token:alice')).toBe(true);
  });

  it('tells a JWT subject from a static token of the same name: an owner is how it was known and its name', () => {
    const tokenAlice = as('submitter', 'alice');
    const jwtAlice: Principal = { name: 'alice', role: 'submitter', via: 'jwt' };
    expect([principalId(tokenAlice), principalId(jwtAlice)]).toEqual(['token:alice', 'jwt:alice']);
    expect(allowed(jwtAlice, 'cancel', principalId(tokenAlice))).toBe(false);
    expect(allowed(jwtAlice, 'cancel', principalId(jwtAlice))).toBe(true);
    // A bare name, as owners were recorded before, is no one's.
    expect(allowed(tokenAlice, 'cancel', 'alice')).toBe(false);
  });

  it('names the role a refused call takes', () => {
    expect(authorize(as('viewer', 'vic'), 'submit')).toEqual({ allowed: false, reason: "'vic' (role viewer) may not run jobs: that takes the submitter or admin role" });
    expect(authorize(as('operator', 'olga'), 'submit')).toEqual({ allowed: false, reason: "'olga' (role operator) may not run jobs: that takes the submitter or admin role" });
  });
});
