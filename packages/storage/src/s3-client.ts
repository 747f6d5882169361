import type { S3Client } from '@aws-sdk/client-s3';
import { rootCertificates } from 'node:tls';
import type { S3Settings } from './types.ts';

type S3Sdk = typeof import('@aws-sdk/client-s3');

let sdk: Promise<S3Sdk> | undefined;

/**
 * The AWS SDK, loaded at the first S3 call: it is the largest module a process would load at
 * start-up (about 80 ms), and most processes never touch S3.
 */
export function loadS3Sdk(): Promise<S3Sdk> {
  sdk ??= import('@aws-sdk/client-s3');
  return sdk;
}

/** An S3 client for S3Storage, created with the SDK at its first use. */
export class S3Connection {
  #client: Promise<{ client: S3Client; sdk: S3Sdk }> | undefined;
  #destroyed = false;

  constructor(private readonly settings: S3Settings) {}

  get(): Promise<{ client: S3Client; sdk: S3Sdk }> {
    this.#client ??= loadS3Sdk().then((loaded) => ({ client: newClient(loaded, this.settings), sdk: loaded }));
    return this.#client;
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    void this.#client?.then(({ client }) => client.destroy());
  }
}

/** The connection S3Storage uses; the SDK loads at its first call. */
export function createS3Client(settings: S3Settings): S3Connection {
  return new S3Connection(settings);
}

/**
 * The SDK's own retries are off: withRetry is the one retry loop, so an outage costs the
 * policy's attempts, not attempts times the SDK's.
 */
function newClient({ S3Client }: S3Sdk, settings: S3Settings): S3Client {
  // Weir runs on Node 20 with this pinned SDK; its multi-line stderr warning about Node 22
  // being required by SDK versions of 2027 would only interleave with the JSON logs.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const credentials =
    settings.accessKey !== undefined && settings.secretKey !== undefined
      ? { accessKeyId: settings.accessKey, secretAccessKey: settings.secretKey }
      : undefined;
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
    ...(credentials === undefined ? {} : { credentials }),
    forcePathStyle: settings.pathStyleAccess,
    // With the defaults, streamed uploads to S3-compatible servers were stored with their
    // aws-chunked framing: silently corrupt files.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1,
    // requestTimeout is socket inactivity: a server that stops answering fails the attempt.
    requestHandler: {
      connectionTimeout: 5_000,
      requestTimeout: 60_000,
      // An agent's `ca` replaces Node's CAs: the system's are kept beside the private one, so s3.ssl.ca never takes AWS away.
      ...(settings.ca === undefined ? {} : { httpsAgent: { keepAlive: true, ca: [...rootCertificates, settings.ca.toString('utf8')] } }),
    },
  });
}
