import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WeirError, type Clock, type WeirConfig } from '@weir/common';
import { readClientTls } from '@weir/security';
import { StorageErrorCode } from './errors.ts';
import { LocalStorage } from './local-storage.ts';
import { normalizePath } from './paths.ts';
import type { RetryPolicy } from './retry.ts';
import { createS3Client, type S3Connection } from './s3-client.ts';
import { S3Storage } from './s3-storage.ts';
import type { S3Settings, Storage } from './types.ts';

const ACCEPTED = 's3://bucket/prefix, file:///absolute/path or a local path';

export interface OpenStorageOptions {
  /** Retry policy of S3 calls (tests use a short one). */
  readonly retry?: RetryPolicy;
  readonly clock?: Clock;
  /**
   * Gives the S3 client to use instead of a new one (called only for s3:// URLs). close() of
   * such a storage leaves the client open: whoever gave it closes it.
   */
  readonly sharedS3Client?: () => S3Connection;
}

/**
 * The Storage a URL names: `s3://bucket[/prefix]` is an S3Storage with its own client;
 * `file:///abs/path` or a plain path (a relative one resolves against the working directory)
 * is a LocalStorage. Any other scheme, or an empty URL, is INVALID_STORAGE_URL.
 */
export function openStorage(url: string, s3: S3Settings, options: OpenStorageOptions = {}): Storage {
  if (url.trim() === '') throw invalidUrl(url, 'it is empty');
  if (url.startsWith('s3://')) {
    const { bucket, prefix } = parseS3Url(url);
    const { sharedS3Client, ...rest } = options;
    if (sharedS3Client !== undefined) return new S3Storage({ client: sharedS3Client(), release: () => {}, bucket, prefix, ...rest });
    const client = createS3Client(s3);
    return new S3Storage({ client, release: () => client.destroy(), bucket, prefix, ...rest });
  }
  if (url.startsWith('file:')) return new LocalStorage(localPathOf(url));
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(url)) throw invalidUrl(url, `its scheme ${url.slice(0, url.indexOf(':'))}:// is not supported`);
  return new LocalStorage(resolve(process.cwd(), url));
}

/** The `s3.*` configuration keys as S3Settings; empty strings mean "not set". */
export function s3SettingsFromConfig(config: WeirConfig): S3Settings {
  return {
    endpoint: config['s3.endpoint'] === '' ? undefined : config['s3.endpoint'],
    accessKey: config['s3.access-key'] === '' ? undefined : config['s3.access-key'],
    secretKey: config['s3.secret-key'] === '' ? undefined : config['s3.secret-key'],
    region: config['s3.region'],
    pathStyleAccess: config['s3.path-style-access'],
    ...(config['s3.ssl.ca'].trim() === '' ? {} : { ca: readClientTls({ ca: config['s3.ssl.ca'].trim() }, 's3.ssl.ca').ca }),
  };
}

function parseS3Url(url: string): { bucket: string; prefix: string } {
  const rest = url.slice('s3://'.length);
  const slash = rest.indexOf('/');
  const bucket = slash === -1 ? rest : rest.slice(0, slash);
  if (bucket === '') throw invalidUrl(url, 'it names no bucket');
  try {
    return { bucket, prefix: slash === -1 ? '' : normalizePath(rest.slice(slash + 1)) };
  } catch (error) {
    throw invalidUrl(url, "its key prefix contains '..'", error);
  }
}

/** A storage URL as people know it: the local path of a `file://` URL, any other URL as it is. */
export function displayLocation(url: string): string {
  return url.startsWith('file:') ? fileURLToPath(url) : url;
}

/**
 * The location of the directory that holds `location`, in the same form: `s3://b/jobs/chk-3`
 * → `s3://b/jobs`, `file:///data/cp/chk-3` → `file:///data/cp`, `/data/cp/chk-3` →
 * `/data/cp`. Undefined when nothing is above it: a bucket, the file system root.
 */
export function parentLocation(location: string): string | undefined {
  const scheme = /^(s3:\/\/[^/]*|file:\/\/)/.exec(location)?.[0] ?? '';
  const path = location.slice(scheme.length).replace(/\/+$/, '');
  if (path === '') return undefined;
  const slash = path.lastIndexOf('/');
  if (slash === -1) return scheme === '' ? '.' : undefined;
  if (slash === 0) return scheme.startsWith('s3://') ? scheme : `${scheme}/`;
  return scheme + path.slice(0, slash);
}

function localPathOf(url: string): string {
  let path: string;
  try {
    path = fileURLToPath(url);
  } catch (error) {
    throw invalidUrl(url, 'it is not a file URL of an absolute local path', error);
  }
  if (!isAbsolute(path)) throw invalidUrl(url, 'it is not a file URL of an absolute local path');
  return path;
}

function invalidUrl(url: string, what: string, cause?: unknown): WeirError {
  return new WeirError(
    StorageErrorCode.INVALID_STORAGE_URL,
    `invalid storage URL ${JSON.stringify(url)}: ${what}; use ${ACCEPTED}`,
    cause === undefined ? undefined : { cause },
  );
}
