import { createServer } from 'node:net';
import { WeirError } from '@weir/common';
import { CliErrorCode } from '../errors.ts';

/**
 * Resolves when host:port can be listened on now; PORT_IN_USE naming it otherwise. Checked
 * before a local cluster starts anything: with the port taken by another JobManager, the new
 * one would fail to start while the old one answered as if it had.
 */
export function ensurePortFree(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EADDRINUSE') {
        resolve();
        return;
      }
      reject(
        new WeirError(
          CliErrorCode.PORT_IN_USE,
          `port ${port} is already in use (by another JobManager, or another process): stop it, or start this cluster on another port with -D jobmanager.rpc.port=<port>`,
        ),
      );
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
