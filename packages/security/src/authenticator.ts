import { WeirError } from '@weir/common';
import { SecurityErrorCode } from './errors.ts';
import { JwtVerifier } from './jwt-verifier.ts';
import { ANONYMOUS, type Principal } from './roles.ts';
import type { SecuritySettings } from './settings.ts';
import { TokensFile } from './tokens-file.ts';

/** A JWT is three base64url parts; Weir's own tokens have no dot. */
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/;

/**
 * Who is calling, from the `authorization` value of a gRPC call's metadata or an HTTP
 * request (`Bearer <token>`): a static token of the tokens file or a JWT. With neither
 * configured every call is ANONYMOUS (an admin), so a cluster without security works as
 * before.
 */
export class Authenticator {
  readonly #tokens: TokensFile | undefined;
  readonly #jwt: JwtVerifier | undefined;

  constructor(settings: Pick<SecuritySettings, 'tokensFile' | 'jwt'>, onReloadFailed?: (err: unknown) => void) {
    this.#tokens = settings.tokensFile === undefined ? undefined : new TokensFile(settings.tokensFile, onReloadFailed);
    this.#jwt = settings.jwt === undefined ? undefined : new JwtVerifier(settings.jwt, onReloadFailed);
  }

  get enabled(): boolean {
    return this.#tokens !== undefined || this.#jwt !== undefined;
  }

  /** The caller's principal; UNAUTHENTICATED when a token is needed and missing or not accepted. */
  async authenticate(authorization: string | undefined): Promise<Principal> {
    if (!this.enabled) return ANONYMOUS;
    if (authorization === undefined || authorization === '') {
      throw new WeirError(SecurityErrorCode.UNAUTHENTICATED, 'this cluster needs a token: set WEIR_TOKEN or pass --token-file <file> (REST: an Authorization: Bearer <token> header)');
    }
    const match = /^Bearer ([^\s]+)$/i.exec(authorization);
    if (match === null) throw new WeirError(SecurityErrorCode.UNAUTHENTICATED, 'the authorization is not "Bearer <token>"');
    const token = match[1]!;
    if (this.#jwt !== undefined && JWT_SHAPE.test(token)) return this.#jwt.verify(token);
    const principal = this.#tokens?.lookup(token);
    if (principal === undefined) throw new WeirError(SecurityErrorCode.UNAUTHENTICATED, 'the token is not one this cluster knows (not in its tokens file, or revoked)');
    return principal;
  }

  close(): void {
    this.#tokens?.close();
    this.#jwt?.close();
  }
}
