import type { Principal } from '@weir/security';

/**
 * Who submitted each job (@weir/security's principalId), for the rule that a submitter may
 * cancel, stop or savepoint only its own jobs. The owner is part of the job (its JobSpec, and
 * under HA its submission in storageDir), so a new leader knows it too.
 */
export interface JobOwners {
  ownerOf(jobId: string): string | undefined;
  /**
   * False while this JobManager stands by under HA: it knows no job's owner then, and REST
   * requests go on to the leader, whose guard checks the owner (the header is forwarded).
   * Absent: always true.
   */
  knowsOwners?(): boolean;
}

/**
 * The principal the gRPC guard authenticated for each call, for the handler behind it: a
 * submission records it as the job's owner. Keyed by the call object, which only the server
 * made, never by metadata a client could set.
 */
const callPrincipals = new WeakMap<object, Principal>();

export function setCallPrincipal(call: object, principal: Principal): void {
  callPrincipals.set(call, principal);
}

export function callPrincipal(call: object): Principal | undefined {
  return callPrincipals.get(call);
}
