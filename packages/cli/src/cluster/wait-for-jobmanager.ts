import { connect } from 'node:net';
import { WeirError, type Clock } from '@weir/common';
import { JobClient } from '../client/job-client.ts';
import { CliErrorCode } from '../errors.ts';

const POLL_MS = 200;

/**
 * Resolves once the JobManager at host:port answers ListJobs. Probes with plain TCP first:
 * a gRPC channel that failed to connect backs off for longer and longer, a socket does not.
 * Throws when `gaveUp` resolves first (the process died) or after `timeoutMs`.
 */
export async function waitForJobManager(
  host: string,
  port: number,
  options: { clock: Clock; timeoutMs: number; gaveUp: Promise<string> },
): Promise<void> {
  const deadline = options.clock.now() + options.timeoutMs;
  let failure: string | undefined;
  void options.gaveUp.then((reason) => (failure = reason));
  for (;;) {
    if (failure !== undefined) throw new WeirError(CliErrorCode.CLUSTER_PROCESS_FAILED, `the JobManager did not start: ${failure}`);
    if ((await accepts(host, port)) && (await answers(`${host}:${port}`))) return;
    if (options.clock.now() >= deadline) {
      throw new WeirError(
        CliErrorCode.CLUSTER_PROCESS_FAILED,
        `the JobManager did not answer at ${host}:${port} within ${options.timeoutMs} ms; see its output`,
      );
    }
    await new Promise((resolve) => options.clock.setTimeout(() => resolve(undefined), POLL_MS));
  }
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function answers(address: string): Promise<boolean> {
  const client = JobClient.connect(address);
  try {
    await client.list();
    return true;
  } catch (err) {
    if (err instanceof WeirError && err.code === CliErrorCode.JOBMANAGER_UNREACHABLE) return false;
    throw err;
  } finally {
    client.close();
  }
}
