import type { SecureContextOptions } from 'node:tls';
import type { PemMaterial, PemSource } from './pem-source.ts';

/** Options for https.createServer / http2.createSecureServer from the current material. */
export function secureContextOptions(material: PemMaterial): SecureContextOptions {
  return { cert: material.cert, key: material.key, ...(material.ca === undefined ? {} : { ca: material.ca }) };
}

interface SecureServer {
  setSecureContext(options: SecureContextOptions): void;
  once(event: 'close', listener: () => void): unknown;
}

/** Keeps an HTTPS server's certificate that of `source`: connections after a rotation get the new one. Returns what stops it. */
export function followCertificates(server: SecureServer, source: PemSource): () => void {
  const stop = source.onChange((material) => server.setSecureContext(secureContextOptions(material)));
  server.once('close', stop);
  return stop;
}
