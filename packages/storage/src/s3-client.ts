import { S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from './types.ts';

/**
 * An S3 client for S3Storage. The SDK's own retries are off: withRetry is the one retry
 * loop, so an outage costs the policy's attempts, not attempts times the SDK's.
 */
export function createS3Client(settings: S3Settings): S3Client {
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
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  });
}
