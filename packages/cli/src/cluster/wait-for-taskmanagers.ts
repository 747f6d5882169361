import { WeirError, type Clock } from '@weir/common';
import { JobClient } from '../client/job-client.ts';
import { CliErrorCode } from '../errors.ts';

const POLL_MS = 200;

/**
 * Resolves once `count` TaskManagers have registered with the JobManager at `address`.
 * Throws when `gaveUp` resolves first (the JobManager died) or after `timeoutMs`, saying how
 * many did register.
 */
export async function waitForTaskManagers(address: string, count: number, options: { clock: Clock; timeoutMs: number; gaveUp: Promise<string> }): Promise<void> {
  const deadline = options.clock.now() + options.timeoutMs;
  let failure: string | undefined;
  void options.gaveUp.then((reason) => (failure = reason));
  const client = JobClient.connect(address);
  try {
    for (;;) {
      if (failure !== undefined) throw new WeirError(CliErrorCode.CLUSTER_PROCESS_FAILED, `the cluster did not start: ${failure}`);
      const registered = (await client.overview()).taskManagers;
      if (registered >= count) return;
      if (options.clock.now() >= deadline) {
        throw new WeirError(
          CliErrorCode.CLUSTER_PROCESS_FAILED,
          `only ${registered} of ${count} TaskManagers registered with the JobManager at ${address} within ${options.timeoutMs} ms; see their output`,
        );
      }
      await new Promise((resolve) => options.clock.setTimeout(() => resolve(undefined), POLL_MS));
    }
  } finally {
    client.close();
  }
}
