/** Who the dashboard's user is, as GET /auth/whoami answers. */
export interface WhoAmI {
  /** False when the cluster runs without authentication: no login, every button shown. */
  readonly authentication: boolean;
  readonly name: string;
  readonly role: 'viewer' | 'submitter' | 'operator' | 'admin';
  readonly via: 'token' | 'jwt' | 'anonymous';
  /** As a job's owner is recorded: `token:alice`. */
  readonly principal: string;
}

/**
 * Whether `who` may cancel, stop, savepoint or rescale a job submitted by `owner`: the rule
 * of @weir/security's `authorize`, mirrored to hide the buttons a role may not use (the
 * JobManager decides; this only spares the user a refusal). viewer: never; submitter: its own
 * jobs; operator and admin: any job.
 */
export function mayControlJob(who: WhoAmI, owner: string | null): boolean {
  if (who.role === 'admin' || who.role === 'operator') return true;
  return who.role === 'submitter' && owner !== null && owner === who.principal;
}
