import type { WeirError } from '@weir/common';
import { fromServiceError, type DisposeSavepointRequest, type JobServiceClient, type TriggerSavepointRequest, type TriggerSavepointResponse__Output, type grpc } from '@weir/rpc';

/** A job without checkpointing (args: none): numbers at 100/s into a DiscardingSink, for a long time. */
export const UNCHECKPOINTED = `
import { StreamExecutionEnvironment } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

export default function unCheckpointed(env: StreamExecutionEnvironment) {
  env.setParallelism(1);
  env.fromSource(new DataGeneratorSource((i: number) => i, 1_000_000, RateLimiterStrategy.perSecond(100)), 'numbers').uid('numbers')
    .sinkTo(new DiscardingSink<number>()).uid('sink');
}
`;

/** TriggerSavepoint over gRPC: the response, or the WeirError the JobManager answered with (code intact). */
export function triggerSavepoint(client: JobServiceClient, request: TriggerSavepointRequest): Promise<TriggerSavepointResponse__Output> {
  return new Promise((resolve, reject) => {
    client.triggerSavepoint(request, (err, response) => (err ? reject(fromServiceError(err as grpc.ServiceError)) : resolve(response!)));
  });
}

export function disposeSavepoint(client: JobServiceClient, request: DisposeSavepointRequest): Promise<void> {
  return new Promise((resolve, reject) => {
    client.disposeSavepoint(request, (err) => (err ? reject(fromServiceError(err as grpc.ServiceError)) : resolve()));
  });
}

/** The WeirError a promise rejected with; fails when it resolved. */
export async function rejection(promise: Promise<unknown>): Promise<WeirError> {
  try {
    await promise;
  } catch (err) {
    return err as WeirError;
  }
  throw new Error('expected the call to fail, it succeeded');
}

/**
 * Why the committed running-sums lines are not a per-key prefix of the expected ones (each
 * key's events 0..k, no gap, no duplicate, the right sums); undefined when they are.
 */
export function prefixViolation(committed: readonly string[], expectedSorted: readonly string[]): string | undefined {
  const byKey = (lines: readonly string[]) => {
    const keys = new Map<string, string[]>();
    for (const line of lines) {
      const key = line.split(' ')[0]!;
      const list = keys.get(key);
      if (list === undefined) keys.set(key, [line]);
      else list.push(line);
    }
    for (const list of keys.values()) list.sort((a, b) => Number(a.split(' ')[1]) - Number(b.split(' ')[1]));
    return keys;
  };
  const expected = byKey(expectedSorted);
  for (const [key, lines] of byKey(committed)) {
    const want = (expected.get(key) ?? []).slice(0, lines.length);
    const at = lines.findIndex((line, i) => line !== want[i]);
    if (at !== -1) return `key ${key}: committed line ${at} is "${lines[at]}", expected "${want[at] ?? 'nothing'}"`;
  }
  return undefined;
}
