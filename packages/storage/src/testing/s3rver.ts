import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Server } from 'node:http';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../types.ts';

export interface S3rverOptions {
  /** Bucket created at start; default "weir". */
  readonly bucket?: string;
  /** Where s3rver keeps objects; default a fresh temp directory, removed when the process exits. */
  readonly directory?: string;
  /** Serve HTTPS with this certificate and key (PEM): an S3 endpoint with a private CA. */
  readonly tls?: { readonly cert: Buffer; readonly key: Buffer };
}

export interface RunningS3rver {
  /** http://127.0.0.1:<port>, https:// with `tls` */
  readonly endpoint: string;
  readonly bucket: string;
  /** Settings for openStorage / createS3Client: the endpoint, s3rver's credentials, path-style access. */
  readonly settings: S3Settings;
  /** Stops the server: the port is closed, so calls fail as against an S3 that is down. Objects are kept. */
  stop(): Promise<void>;
  /** Starts the server again on the same port with the same objects (stopping it first if it runs). */
  restart(): Promise<void>;
}

/** s3rver accepts only these credentials. */
const CREDENTIALS = 'S3RVER';

/** An S3 server for tests: s3rver on 127.0.0.1, on a free port, with one bucket. */
export async function startS3rver(options: S3rverOptions = {}): Promise<RunningS3rver> {
  const bucket = options.bucket ?? 'weir';
  const directory = options.directory ?? ownedTempDirectory();
  const launch = async (port: number): Promise<{ server: S3rver; port: number }> => {
    const server = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: bucket, configs: [] }],
      ...(options.tls === undefined ? {} : { cert: options.tls.cert, key: options.tls.key }),
    });
    const address = await server.run();
    return { server, port: address.port };
  };
  const first = await launch(0);
  let running: S3rver | undefined = first.server;
  const endpoint = `${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${first.port}`;
  const stop = async (): Promise<void> => {
    const server = running;
    running = undefined;
    if (server === undefined) return;
    const closed = server.close();
    // close() waits for every open connection to end, and the S3 clients of the processes
    // under test keep theirs alive: cut them, as a crashed S3 endpoint would.
    (server as unknown as { httpServer?: Server }).httpServer?.closeAllConnections();
    await closed;
  };
  return {
    endpoint,
    bucket,
    settings: { endpoint, accessKey: CREDENTIALS, secretKey: CREDENTIALS, region: 'us-east-1', pathStyleAccess: true },
    stop,
    async restart() {
      await stop();
      running = (await launch(first.port)).server;
    },
  };
}

/** A temp directory that outlives stop() (restart needs the objects) and goes when the process exits. */
function ownedTempDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'weir-s3rver-'));
  process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
  return directory;
}
