// What authenticating a call costs the JobManager: a static token (SHA-256 and a Map lookup
// over a tokens file of 1,000 lines) and an ES256 JWT against a local JWKS (signature,
// claims). Run: node --import tsx packages/security/scripts/token-check-cost.ts
import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Authenticator, authorize, newToken, tokensFileLine } from '../src/index.ts';

const ROUNDS = 20_000;
const dir = mkdtempSync(join(tmpdir(), 'weir-token-cost-'));
const tokens = Array.from({ length: 1_000 }, () => newToken());
writeFileSync(join(dir, 'tokens'), tokens.map((t, i) => tokensFileLine(t, 'submitter', `user${i}`)).join(''));
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
writeFileSync(join(dir, 'jwks.json'), JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k', alg: 'ES256' }] }));
const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const input = `${part({ alg: 'ES256', kid: 'k' })}.${part({ sub: 'carol', role: 'submitter', iss: 'https://idp', aud: 'weir', exp: Math.floor(Date.now() / 1000) + 3600 })}`;
const jwt = `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
const authenticator = new Authenticator({ tokensFile: join(dir, 'tokens'), jwt: { jwks: join(dir, 'jwks.json'), issuer: 'https://idp', audience: 'weir' } });

async function measure(name: string, header: string): Promise<void> {
  for (let i = 0; i < 1_000; i++) authorize(await authenticator.authenticate(header), 'submit');
  const start = process.hrtime.bigint();
  for (let i = 0; i < ROUNDS; i++) authorize(await authenticator.authenticate(header), 'submit');
  const us = Number(process.hrtime.bigint() - start) / ROUNDS / 1_000;
  console.log(`${name}: ${us.toFixed(1)} us per authenticate + authorize (${ROUNDS} rounds)`);
}

await measure('static token, 1000-line tokens file', `Bearer ${tokens[500]}`);
await measure('ES256 JWT, local JWKS', `Bearer ${jwt}`);
authenticator.close();
