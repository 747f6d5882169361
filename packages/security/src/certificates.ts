import { randomBytes, webcrypto } from 'node:crypto';
import { isIP } from 'node:net';

/** ECDSA P-256: small keys, fast handshakes, accepted by every TLS stack Weir talks to. */
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

export interface PemPair {
  readonly cert: string;
  readonly key: string;
}

export interface CertificateNames {
  /** DNS names the certificate is valid for (`localhost`, `jobmanager`, `*.weir.svc`). */
  readonly hosts: readonly string[];
  /** IP addresses it is valid for. */
  readonly ips: readonly string[];
}

/**
 * @peculiar/x509 with Node's WebCrypto. Loaded on first use: only `weir security init`
 * makes certificates, and the library (with tsyringe, which needs reflect-metadata loaded
 * first) is some 40 modules no cluster process should pay for.
 */
async function x509Library(): Promise<typeof import('@peculiar/x509')> {
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  x509.cryptoProvider.set(webcrypto as Crypto);
  return x509;
}

async function keyPem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
}

async function importKey(pem: string): Promise<CryptoKey> {
  const der = Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return webcrypto.subtle.importKey('pkcs8', der, ALGORITHM, true, ['sign']);
}

function serial(): string {
  // Positive: the first bit clear.
  const bytes = randomBytes(16);
  bytes[0]! &= 0x7f;
  return bytes.toString('hex');
}

/** A new cluster CA, valid for `days` (ten years by default). */
export async function createCertificateAuthority(commonName = 'Weir cluster CA', days = 3650): Promise<PemPair> {
  const x509 = await x509Library();
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${commonName}`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + days * DAY_MS),
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert: cert.toString('pem') + '\n', key: await keyPem(keys.privateKey) };
}

/**
 * A certificate the CA signs for `names`: `server` ones are for REST, `node` ones for
 * JobManagers and TaskManagers, which are servers and clients of each other (mutual TLS),
 * `client` ones only show who a client is (etcd's), for no names.
 */
export async function issueCertificate(ca: PemPair, commonName: string, names: CertificateNames, usage: 'node' | 'server' | 'client', days = 365): Promise<PemPair> {
  const x509 = await x509Library();
  const caCert = new x509.X509Certificate(ca.cert);
  const caKey = await importKey(ca.key);
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const altNames = [...names.hosts.map((value) => ({ type: 'dns' as const, value })), ...names.ips.map((value) => ({ type: 'ip' as const, value }))];
  const usages = usage === 'node' ? [x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth] : usage === 'client' ? [x509.ExtendedKeyUsage.clientAuth] : [x509.ExtendedKeyUsage.serverAuth];
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${commonName}`,
    issuer: caCert.subject,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + days * DAY_MS),
    publicKey: keys.publicKey,
    signingKey: caKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
      new x509.ExtendedKeyUsageExtension(usages),
      ...(altNames.length === 0 ? [] : [new x509.SubjectAlternativeNameExtension(altNames)]),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
    ],
  });
  return { cert: cert.toString('pem') + '\n', key: await keyPem(keys.privateKey) };
}

/** Which of `values` are not IP addresses (for a message). */
export function notIpAddresses(values: readonly string[]): string[] {
  return values.filter((v) => isIP(v) === 0);
}
