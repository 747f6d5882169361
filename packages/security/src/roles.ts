/** What a caller may do, from least to most. */
export const ROLES = ['viewer', 'submitter', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/**
 * Every call a client makes, by what it does: `read` is every GET and every listing;
 * `read-results` takes a query's rows (a collect sink's), which only its submitter may see;
 * the others change the cluster and are written to the audit log.
 */
export type Action = 'read' | 'read-results' | 'submit' | 'cancel' | 'stop' | 'savepoint' | 'checkpoint' | 'rescale' | 'dispose-savepoint';

/** Who made a call: a tokens file line or a JWT's subject, with its role. */
export interface Principal {
  readonly name: string;
  readonly role: Role;
  /** How it was known: a static token, a JWT, or `anonymous` when authentication is off. */
  readonly via: 'token' | 'jwt' | 'anonymous';
}

/**
 * The principal as a job's owner is recorded and compared: how it was known and its name
 * (`token:alice`, `jwt:alice`). A tokens file line and a JWT subject may carry the same name
 * and are different callers: whoever can mint a JWT with subject alice is not the holder of
 * alice's static token.
 */
export function principalId(principal: Principal): string {
  return `${principal.via}:${principal.name}`;
}

/** The principal of every call while neither a tokens file nor a JWKS is configured: everything is allowed, as before security. */
export const ANONYMOUS: Principal = { name: 'anonymous', role: 'admin', via: 'anonymous' };

/** Actions on a running job an operator may take on any job, and a submitter on its own. */
const JOB_CONTROL: ReadonlySet<Action> = new Set(['cancel', 'stop', 'savepoint', 'checkpoint', 'rescale']);

export type Decision = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

/**
 * The one authorization rule, for gRPC and REST alike. Results (`read-results`): the job's
 * submitter and admin only, whatever the role. viewer: read. submitter: read, run
 * jobs, and cancel, stop, savepoint, checkpoint or rescale the jobs it submitted. operator: read,
 * cancel, stop, savepoint, checkpoint, rescale any job, dispose savepoints. admin: everything.
 * `owner` is the principalId recorded with the job (undefined: not a job's call, or a job
 * whose submitter is not known, such as one submitted before authentication was on).
 */
export function authorize(principal: Principal, action: Action, owner?: string): Decision {
  const role = principal.role;
  if (role === 'admin' || action === 'read') return { allowed: true };
  if (action === 'read-results') {
    // The rows are the submitter's data, not the cluster's state: no role but admin reads another's.
    if (owner !== undefined && owner === principalId(principal)) return { allowed: true };
    return { allowed: false, reason: `${describe(principal)} may read only the results of the jobs it submitted${owner === undefined ? '' : ` (this one was submitted by ${owner})`}` };
  }
  if (action === 'submit') {
    return role === 'submitter' ? { allowed: true } : { allowed: false, reason: `${describe(principal)} may not run jobs: that takes the submitter or admin role` };
  }
  if (role === 'operator') return { allowed: true };
  if (role === 'submitter' && JOB_CONTROL.has(action)) {
    if (owner !== undefined && owner === principalId(principal)) return { allowed: true };
    return { allowed: false, reason: `${describe(principal)} may ${action} only the jobs it submitted${owner === undefined ? '' : ` (this one was submitted by ${owner})`}: another's job takes the operator or admin role` };
  }
  return { allowed: false, reason: `${describe(principal)} may not ${action}: that takes the ${action === 'dispose-savepoint' ? 'operator' : 'operator or submitter (own jobs)'} role, or admin` };
}

function describe(principal: Principal): string {
  return `'${principal.name}' (role ${principal.role})`;
}
