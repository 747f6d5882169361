import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { WeirError, describeError } from '@weir/common';
import { SecurityErrorCode } from './errors.ts';

/** PEM files a client takes to a TLS server outside the cluster's own (etcd, S3): the CA to trust, and a certificate to show when the server asks. */
export interface ClientTlsFiles {
  /** The CA that signed the server's certificate; absent: the system's CAs. */
  readonly ca?: string;
  /** Shown to a server that checks clients (etcd --client-cert-auth); with `key`. */
  readonly cert?: string;
  readonly key?: string;
}

export interface ClientTlsMaterial {
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
}

/**
 * Reads and checks a client's TLS files at start: each readable and PEM, the key belonging to
 * the certificate. SECURITY_FILE_INVALID names the key (`what`) and the file; a TLS handshake
 * failing later would say neither. Read once: the etcd and S3 clients build their
 * connections' credentials when they are made, so a rotated file takes a restart.
 */
export function readClientTls(files: ClientTlsFiles, what: string): ClientTlsMaterial {
  const read = (kind: string, path: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (err) {
      throw new WeirError(SecurityErrorCode.SECURITY_FILE_INVALID, `cannot read the ${kind} file ${path} (${what}): ${describeError(err)}`);
    }
  };
  const certificate = (kind: string, path: string): Buffer => {
    const pem = read(kind, path);
    try {
      new X509Certificate(pem);
    } catch (err) {
      throw new WeirError(SecurityErrorCode.SECURITY_FILE_INVALID, `${path} (${what}) is not a PEM ${kind}: ${describeError(err)}`);
    }
    return pem;
  };
  if ((files.cert === undefined) !== (files.key === undefined)) {
    throw new WeirError(SecurityErrorCode.INVALID_SECURITY_CONFIG, `${what}: a client certificate needs its key and a key its certificate; set both or neither`);
  }
  const ca = files.ca === undefined ? undefined : certificate('CA certificate', files.ca);
  if (files.cert === undefined || files.key === undefined) return { ca };
  const cert = certificate('certificate', files.cert);
  const key = read('private key', files.key);
  let matches: boolean;
  try {
    matches = new X509Certificate(cert).checkPrivateKey(createPrivateKey(key));
  } catch (err) {
    throw new WeirError(SecurityErrorCode.SECURITY_FILE_INVALID, `${files.key} (${what}) is not a PEM private key: ${describeError(err)}`);
  }
  if (!matches) throw new WeirError(SecurityErrorCode.SECURITY_FILE_INVALID, `the private key in ${files.key} does not belong to the certificate in ${files.cert} (${what})`);
  return { ca, cert, key };
}
