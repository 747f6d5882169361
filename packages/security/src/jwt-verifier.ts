import { readFileSync } from 'node:fs';
import { WeirError, describeError } from '@weir/common';
import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from 'jose';
import { SecurityErrorCode } from './errors.ts';
import { isRole, ROLES, type Principal, type Role } from './roles.ts';
import type { JwtSettings } from './settings.ts';
import { FileWatch } from './watched-files.ts';

/**
 * jose is loaded on the first JWT: it is some 170 ms of a process's start (load 8), which no
 * TaskManager and no JobManager without security.auth.jwt.jwks should pay.
 */
let jose: Promise<typeof import('jose')> | undefined;
const loadJose = () => (jose ??= import('jose'));

function readKeySet(path: string): JSONWebKeySet {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new WeirError(SecurityErrorCode.SECURITY_FILE_INVALID, `${path} (security.auth.jwt.jwks) is not a readable JWKS ({"keys": [...]}): ${describeError(err)}`);
  }
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as { keys?: unknown }).keys)) {
    throw new WeirError(SecurityErrorCode.SECURITY_FILE_INVALID, `${path} (security.auth.jwt.jwks) is JSON but not a JWKS: it needs a "keys" list`);
  }
  return parsed as JSONWebKeySet;
}

/** The highest role a token's `role` claim (a string) or `roles` claim (a list, as many OIDC providers put groups) names. */
function roleOf(payload: JWTPayload): Role | undefined {
  const claimed = [payload['role'], ...(Array.isArray(payload['roles']) ? payload['roles'] : [])].filter((r): r is string => typeof r === 'string' && isRole(r));
  return ROLES.filter((r) => claimed.includes(r)).at(-1);
}

/**
 * Verifies JWTs (OIDC access or ID tokens) with jose against a JWKS from a file (re-read
 * when it changes) or an https URL (jose fetches it, caches it and fetches again for a key ID
 * it has not seen), checking the signature, exp/nbf, the issuer and the audience. The
 * principal is the token's `sub`, its role from the `role` or `roles` claim.
 */
export class JwtVerifier {
  /** The JWKS file's keys (undefined for a URL); the key lookup jose makes of them, on first use. */
  #keySet: JSONWebKeySet | undefined;
  #keys: JWTVerifyGetKey | undefined;
  readonly #watch: FileWatch | undefined;

  constructor(
    private readonly settings: JwtSettings,
    onReloadFailed: (err: unknown) => void = () => {},
    intervalMs?: number,
  ) {
    if (!settings.jwks.startsWith('https://')) {
      this.#keySet = readKeySet(settings.jwks);
      this.#watch = new FileWatch(
        [settings.jwks],
        () => {
          try {
            this.#keySet = readKeySet(settings.jwks);
            this.#keys = undefined;
          } catch (err) {
            onReloadFailed(err);
          }
        },
        intervalMs,
      );
    }
  }

  /** The principal of a valid token; UNAUTHENTICATED saying why it is not. */
  async verify(token: string): Promise<Principal> {
    const { createLocalJWKSet, createRemoteJWKSet, jwtVerify } = await loadJose();
    this.#keys ??= this.#keySet === undefined ? createRemoteJWKSet(new URL(this.settings.jwks)) : createLocalJWKSet(this.#keySet);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.#keys, { issuer: this.settings.issuer, audience: this.settings.audience }));
    } catch (err) {
      throw new WeirError(SecurityErrorCode.UNAUTHENTICATED, `the JWT was refused: ${(err as Error).message}`);
    }
    const role = roleOf(payload);
    if (typeof payload.sub !== 'string' || payload.sub === '') throw new WeirError(SecurityErrorCode.UNAUTHENTICATED, 'the JWT has no sub claim to name its holder');
    if (role === undefined) throw new WeirError(SecurityErrorCode.UNAUTHENTICATED, `the JWT of '${payload.sub}' names no Weir role in its role or roles claim (one of ${ROLES.join(', ')})`);
    return { name: payload.sub, role, via: 'jwt' };
  }

  close(): void {
    this.#watch?.close();
  }
}
