import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Authenticator } from './authenticator.ts';
import { ANONYMOUS } from './roles.ts';
import { hashToken, newToken, tokensFileLine } from './tokens-file.ts';

function jwt(key: KeyObject, claims: Record<string, unknown>, kid = 'k1'): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'ES256', kid })}.${part(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

const waitFor = async (check: () => Promise<boolean>) => {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('Authenticator', () => {
  const open: Authenticator[] = [];
  afterEach(() => open.splice(0).forEach((a) => a.close()));
  const make = (settings: ConstructorParameters<typeof Authenticator>[0]) => {
    const authenticator = new Authenticator(settings);
    open.push(authenticator);
    return authenticator;
  };

  it('lets everyone in as an admin while neither tokens nor a JWKS are configured', async () => {
    expect(await make({}).authenticate(undefined)).toBe(ANONYMOUS);
  });

  it('knows a token by its SHA-256 only, and takes a changed tokens file without a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-tokens-'));
    const file = join(dir, 'tokens');
    const alice = newToken();
    const bob = newToken();
    writeFileSync(file, `# comment\n\n${tokensFileLine(alice, 'submitter', 'alice')}`);
    const authenticator = make({ tokensFile: file });
    expect(await authenticator.authenticate(`Bearer ${alice}`)).toEqual({ name: 'alice', role: 'submitter', via: 'token' });
    await expect(authenticator.authenticate(`Bearer ${bob}`)).rejects.toThrow('the token is not one this cluster knows');
    await expect(authenticator.authenticate(undefined)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(authenticator.authenticate(alice)).rejects.toThrow('the authorization is not "Bearer <token>"');
    writeFileSync(file, tokensFileLine(bob, 'operator', 'bob'));
    await waitFor(async () => (await authenticator.authenticate(`Bearer ${bob}`).catch(() => undefined))?.name === 'bob');
    // alice's line is gone: her token is revoked.
    await expect(authenticator.authenticate(`Bearer ${alice}`)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(hashToken(alice)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('refuses a tokens file with a plain token or an unknown role, naming the line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-tokens-'));
    writeFileSync(join(dir, 'plain'), 'weir_abc admin root\n');
    expect(() => make({ tokensFile: join(dir, 'plain') })).toThrow(`${join(dir, 'plain')} line 1 is not "sha256:<64 hex digits> <role> <name>"`);
    writeFileSync(join(dir, 'role'), `${hashToken('x')} root admin\n`);
    expect(() => make({ tokensFile: join(dir, 'role') })).toThrow("gives the role 'root'; roles are viewer, submitter, operator, admin");
  });

  it('verifies JWTs against a JWKS file: signature, expiry, issuer and audience, role from role or roles', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weir-jwks-'));
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    writeFileSync(join(dir, 'jwks.json'), JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'ES256' }] }));
    const authenticator = make({ jwt: { jwks: join(dir, 'jwks.json'), issuer: 'https://idp', audience: 'weir' } });
    const exp = Math.floor(Date.now() / 1000) + 600;
    const good = { iss: 'https://idp', aud: 'weir', exp, sub: 'carol' };
    expect(await authenticator.authenticate(`Bearer ${jwt(privateKey, { ...good, roles: ['viewer', 'operator'] })}`)).toEqual({ name: 'carol', role: 'operator', via: 'jwt' });
    expect(await authenticator.authenticate(`Bearer ${jwt(privateKey, { ...good, role: 'submitter' })}`)).toEqual({ name: 'carol', role: 'submitter', via: 'jwt' });
    const refused = async (token: string) => (await authenticator.authenticate(`Bearer ${token}`).then(() => 'accepted', (err: Error) => err.message));
    expect(await refused(jwt(privateKey, { ...good, role: 'admin', exp: exp - 1200 }))).toBe('the JWT was refused: "exp" claim timestamp check failed');
    expect(await refused(jwt(privateKey, { ...good, role: 'admin', aud: 'other' }))).toBe('the JWT was refused: unexpected "aud" claim value');
    expect(await refused(jwt(privateKey, { ...good, role: 'admin', iss: 'https://evil' }))).toBe('the JWT was refused: unexpected "iss" claim value');
    expect(await refused(jwt(stranger, { ...good, role: 'admin' }))).toBe('the JWT was refused: signature verification failed');
    expect(await refused(jwt(privateKey, { ...good, role: 'root' }))).toBe("the JWT of 'carol' names no Weir role in its role or roles claim (one of viewer, submitter, operator, admin)");
  });
});
