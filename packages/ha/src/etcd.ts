import type { Etcd3 } from 'etcd3';
import { WeirError, describeError } from '@weir/common';
import { readClientTls } from '@weir/security';
import { HaErrorCode } from './errors.ts';
import { cockatielModule, etcd3Module } from './etcd-module.ts';
import type { HaSettings } from './settings.ts';

/** How long one etcd call may take before it counts as failed. */
export const ETCD_CALL_TIMEOUT_MS = 3_000;

/**
 * An etcd client that tries each call once, with a deadline: the callers decide about retries
 * (the lease keeper renews on its own schedule, checkpoint registration fails the checkpoint),
 * and the client's default circuit breaker would keep failing for seconds after etcd is back.
 */
export function openEtcd(settings: Pick<HaSettings, 'endpoints' | 'tls'>): Etcd3 {
  const { noop } = cockatielModule();
  // Read (and checked) here, by @weir/security, the one reader of credentials: a wrong file fails the start naming it.
  const tls = settings.tls === undefined ? undefined : readClientTls(settings.tls, 'high-availability.etcd.tls.*');
  return new (etcd3Module().Etcd3)({
    hosts: [...settings.endpoints],
    // etcd3 makes TLS credentials of these for https:// hosts; without a CA, grpc-js takes the system's (hence the cast).
    ...(tls === undefined ? {} : { credentials: { rootCertificate: tls.ca as Buffer, privateKey: tls.key, certChain: tls.cert } }),
    dialTimeout: ETCD_CALL_TIMEOUT_MS,
    // gRPC's own reconnect backoff grows to two minutes: after an etcd outage the leader would
    // not get a renewal through before its lease runs out.
    grpcOptions: { 'grpc.initial_reconnect_backoff_ms': 250, 'grpc.max_reconnect_backoff_ms': 1_000 },
    faultHandling: { host: () => noop, global: noop },
    defaultCallOptions: (context) => (context.isStream ? {} : { deadline: Date.now() + ETCD_CALL_TIMEOUT_MS }),
  });
}

/** Resolves once etcd answers; ETCD_UNREACHABLE naming the endpoints when none does within `timeoutMs`. */
export async function ensureEtcdReachable(etcd: Etcd3, settings: Pick<HaSettings, 'endpoints'>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await etcd.maintenance.status();
      return;
    } catch (err) {
      if (Date.now() >= deadline) {
        throw new WeirError(
          HaErrorCode.ETCD_UNREACHABLE,
          `cannot reach etcd at ${settings.endpoints.join(', ')} (high-availability.etcd.endpoints) within ${timeoutMs} ms: ${describeError(err)}; start etcd there or correct the endpoints`,
          { cause: err },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** An etcd call's failure as HA_STORE_UNAVAILABLE: it may or may not have been applied. */
export function unavailable(what: string, err: unknown): WeirError {
  if (err instanceof WeirError) return err;
  return new WeirError(HaErrorCode.HA_STORE_UNAVAILABLE, `${what}: etcd did not answer (${describeError(err)})`, { cause: err });
}
