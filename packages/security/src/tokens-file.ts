import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { WeirError, describeError } from '@weir/common';
import { SecurityErrorCode } from './errors.ts';
import { isRole, ROLES, type Principal } from './roles.ts';
import { FileWatch } from './watched-files.ts';

/**
 * Tokens are 32 random bytes, so a fast hash is enough to keep them secret at rest (a slow
 * hash such as scrypt defends guessable passwords; nobody guesses 256 random bits), and
 * looking one up costs one SHA-256 and a Map lookup: microseconds per call.
 */
export function hashToken(token: string): string {
  return `sha256:${createHash('sha256').update(token, 'utf8').digest('hex')}`;
}

/** A new bearer token: `weir_` and 43 base64url characters (32 random bytes). */
export function newToken(): string {
  return `weir_${randomBytes(32).toString('base64url')}`;
}

/** One line of a tokens file, as `weir security init` writes it. */
export function tokensFileLine(token: string, role: string, name: string): string {
  return `${hashToken(token)} ${role} ${name}\n`;
}

function parseTokensFile(path: string): Map<string, Principal> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new WeirError(SecurityErrorCode.SECURITY_FILE_INVALID, `cannot read the tokens file ${path} (security.auth.tokens-file): ${describeError(err)}`);
  }
  const byHash = new Map<string, Principal>();
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const [hash, role, name, ...rest] = line.split(/\s+/);
    const where = `${path} line ${index + 1}`;
    if (!/^sha256:[0-9a-f]{64}$/.test(hash ?? '') || role === undefined || name === undefined || rest.length > 0) {
      throw new WeirError(SecurityErrorCode.SECURITY_FILE_INVALID, `${where} is not "sha256:<64 hex digits> <role> <name>" (a token's SHA-256, never the token itself)`);
    }
    if (!isRole(role)) throw new WeirError(SecurityErrorCode.SECURITY_FILE_INVALID, `${where} gives the role '${role.slice(0, 32)}'; roles are ${ROLES.join(', ')}`);
    if (byHash.has(hash!)) throw new WeirError(SecurityErrorCode.SECURITY_FILE_INVALID, `${where} repeats a token of an earlier line; each token names one principal`);
    byHash.set(hash!, { name, role, via: 'token' });
  });
  return byHash;
}

/**
 * The principals of a tokens file (security.auth.tokens-file), by token hash; re-read when
 * the file changes. A change that does not parse keeps the tokens read before (and is
 * reported), so a half-written file never locks everyone out.
 */
export class TokensFile {
  #byHash: Map<string, Principal>;
  readonly #watch: FileWatch;

  constructor(
    readonly path: string,
    onReloadFailed: (err: unknown) => void = () => {},
    intervalMs?: number,
  ) {
    this.#byHash = parseTokensFile(path);
    this.#watch = new FileWatch(
      [path],
      () => {
        try {
          this.#byHash = parseTokensFile(path);
        } catch (err) {
          onReloadFailed(err);
        }
      },
      intervalMs,
    );
  }

  /** The principal of `token`, or undefined when no line holds its hash. */
  lookup(token: string): Principal | undefined {
    return this.#byHash.get(hashToken(token));
  }

  close(): void {
    this.#watch.close();
  }
}
