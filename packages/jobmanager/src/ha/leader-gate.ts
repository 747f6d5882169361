import type { WeirError } from '@weir/common';
import { toServiceError, type grpc } from '@weir/rpc';

type AnyCall = { emit(event: 'error', error: unknown): boolean };
type Handler = (call: AnyCall, callback?: (error: unknown, value?: unknown) => void) => void;

/**
 * Handlers for `service` that forward each call to the current leader session's handlers, or,
 * while this JobManager does not lead (a standby, or between terms), fail it with NOT_LEADER.
 * Which session serves is decided per call, so a stream stays with the term it started in.
 */
export function gatedHandlers<H>(service: grpc.ServiceDefinition, current: () => H | undefined, notLeader: () => WeirError): H {
  const handlers: Record<string, Handler> = {};
  for (const [name, method] of Object.entries(service)) {
    handlers[name] = (call, callback) => {
      const target = current() as Record<string, Handler> | undefined;
      if (target !== undefined) {
        target[name]!(call, callback);
        return;
      }
      const error = toServiceError(notLeader());
      if (method.responseStream) call.emit('error', error);
      else callback!(error);
    };
  }
  return handlers as H;
}
