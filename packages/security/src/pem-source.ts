import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { WeirError, describeError } from '@weir/common';
import { SecurityErrorCode } from './errors.ts';
import { FileWatch } from './watched-files.ts';

/** PEM contents of one identity: the certificate and its key, and the CA that peers' certificates must chain to. */
export interface PemMaterial {
  readonly cert: Buffer;
  readonly key: Buffer;
  /** Absent for a server-only identity (REST). */
  readonly ca?: Buffer;
}

export interface PemFilePaths {
  readonly cert: string;
  readonly key: string;
  readonly ca?: string;
}

function readPem(paths: PemFilePaths): PemMaterial {
  const read = (what: string, path: string): Buffer => {
    try {
      return readFileSync(path);
    } catch (err) {
      throw new WeirError(SecurityErrorCode.SECURITY_FILE_INVALID, `cannot read the ${what} file ${path}: ${describeError(err)}`);
    }
  };
  const cert = read('certificate', paths.cert);
  const key = read('private key', paths.key);
  const ca = paths.ca === undefined ? undefined : read('CA certificate', paths.ca);
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch (err) {
    throw new WeirError(SecurityErrorCode.SECURITY_FILE_INVALID, `${paths.cert} is not a PEM certificate: ${describeError(err)}`);
  }
  try {
    if (!certificate.checkPrivateKey(createPrivateKey(key))) {
      throw new WeirError(SecurityErrorCode.SECURITY_FILE_INVALID, `the private key in ${paths.key} does not belong to the certificate in ${paths.cert}`);
    }
  } catch (err) {
    if (err instanceof WeirError) throw err;
    throw new WeirError(SecurityErrorCode.SECURITY_FILE_INVALID, `${paths.key} is not a PEM private key: ${describeError(err)}`);
  }
  if (ca !== undefined) {
    try {
      new X509Certificate(ca);
    } catch (err) {
      throw new WeirError(SecurityErrorCode.SECURITY_FILE_INVALID, `${paths.ca} is not a PEM CA certificate: ${describeError(err)}`);
    }
  }
  return { cert, key, ca };
}

/**
 * A certificate, its key and a CA read from PEM files, re-read when the files change, so
 * certificates rotate without a restart: every connection made after the change uses the
 * new files, connections already open keep theirs. A change that leaves the files not
 * matching (the certificate written, its key not yet) keeps the last good material and is
 * tried again at the next change. This is the one place that reads credentials; @weir/rpc
 * builds gRPC credentials from it, HTTPS servers their secure context.
 */
export class PemSource {
  #current: PemMaterial;
  readonly #listeners = new Set<(material: PemMaterial) => void>();
  readonly #watch: FileWatch;

  /** Reads the files at once: SECURITY_FILE_INVALID names what is wrong with which file. */
  constructor(
    readonly paths: PemFilePaths,
    private readonly onReloadFailed: (err: unknown) => void = () => {},
    intervalMs?: number,
  ) {
    this.#current = readPem(paths);
    const files = [paths.cert, paths.key, ...(paths.ca === undefined ? [] : [paths.ca])];
    this.#watch = new FileWatch(files, () => this.#reload(), intervalMs);
  }

  get current(): PemMaterial {
    return this.#current;
  }

  /** Calls `listener` with every new material; returns what stops it. */
  onChange(listener: (material: PemMaterial) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    this.#watch.close();
    this.#listeners.clear();
  }

  #reload(): void {
    try {
      this.#current = readPem(this.paths);
    } catch (err) {
      this.onReloadFailed(err);
      return;
    }
    for (const listener of this.#listeners) listener(this.#current);
  }
}
