import { WeirError, CommonErrorCode } from '@weir/common';
import * as grpc from '@grpc/grpc-js';

export const RpcErrorCode = {
  /** A server could not listen on its address (port in use, no permission, bad host). */
  BIND_FAILED: 'BIND_FAILED',
  /** The peer could not be reached or the call broke off (gRPC UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED). */
  UNAVAILABLE: 'UNAVAILABLE',
  /** A message was larger than its receiver accepts (gRPC RESOURCE_EXHAUSTED); the JobManager's limit is jobmanager.rpc.max-message-size. */
  MESSAGE_TOO_LARGE: 'MESSAGE_TOO_LARGE',
  /** A trigger or barrier carries checkpoint options no task can honour (unknown type or terminate, terminate on a checkpoint). */
  INVALID_CHECKPOINT_OPTIONS: 'INVALID_CHECKPOINT_OPTIONS',
} as const;

export function bindFailed(host: string, port: number, cause: Error): WeirError {
  const inUse = /address.*in use|EADDRINUSE/i.test(cause.message);
  const hint = inUse
    ? `port ${port} is already in use; stop what uses it or choose another port in the config`
    : cause.message;
  return new WeirError(RpcErrorCode.BIND_FAILED, `cannot listen on ${host}:${port}: ${hint}`, { cause });
}

const WEIR_CODE_KEY = 'weir-error-code';

/**
 * Longest status message a server sends. It travels in an HTTP/2 trailer, which a client
 * drops with the whole connection when it is too large (tens of KiB): a message that quoted a
 * megabyte of someone's input would leave their call, and every later call on the
 * connection, without an answer.
 */
const MAX_DETAILS_CHARS = 4_096;

/** What a server handler passes to its callback (or, on a stream, to `call.emit('error', ...)`: `call.destroy` sends no status) so the client gets the WeirError back with its code. */
export function toServiceError(err: unknown): Partial<grpc.ServiceError> {
  const metadata = new grpc.Metadata();
  if (err instanceof WeirError) {
    metadata.set(WEIR_CODE_KEY, err.code);
    return { code: grpcStatusFor(err.code), details: boundedDetails(err.message), metadata };
  }
  metadata.set(WEIR_CODE_KEY, CommonErrorCode.INTERNAL);
  return { code: grpc.status.INTERNAL, details: boundedDetails(err instanceof Error ? err.message : String(err)), metadata };
}

function boundedDetails(message: string): string {
  if (message.length <= MAX_DETAILS_CHARS) return message;
  return `${message.slice(0, MAX_DETAILS_CHARS)}… (${message.length - MAX_DETAILS_CHARS} more characters cut)`;
}

/** The WeirError a failed call stands for: the server's own code and message, or UNAVAILABLE for transport failures. */
export function fromServiceError(err: grpc.ServiceError, address?: string): WeirError {
  const code = err.metadata?.get(WEIR_CODE_KEY)[0];
  if (typeof code === 'string') return new WeirError(code, err.details, { cause: err });
  if (err.code === grpc.status.RESOURCE_EXHAUSTED) {
    const where = address === undefined ? 'the receiver' : address;
    return new WeirError(
      RpcErrorCode.MESSAGE_TOO_LARGE,
      `${where} refused a message as too large (${err.details || err.message}); a JobManager accepts requests up to jobmanager.rpc.max-message-size`,
      { cause: err },
    );
  }
  if (err.code === grpc.status.UNAVAILABLE || err.code === grpc.status.DEADLINE_EXCEEDED || err.code === grpc.status.CANCELLED) {
    const where = address === undefined ? '' : ` at ${address}`;
    return new WeirError(RpcErrorCode.UNAVAILABLE, `cannot reach the peer${where}: ${err.details || err.message}`, { cause: err });
  }
  return new WeirError(CommonErrorCode.INTERNAL, err.details || err.message, { cause: err });
}

function grpcStatusFor(code: string): grpc.status {
  // @weir/security's codes, as gRPC's own statuses: clients and proxies know them.
  if (code === 'UNAUTHENTICATED') return grpc.status.UNAUTHENTICATED;
  // A path outside the allowed roots is refused for who asked, not for what state the job is in.
  if (code === 'PERMISSION_DENIED' || code === 'PATH_NOT_ALLOWED') return grpc.status.PERMISSION_DENIED;
  // A client over its request budget: gRPC's status for a quota, which clients and proxies retry later.
  if (code === 'RATE_LIMITED') return grpc.status.RESOURCE_EXHAUSTED;
  if (code.endsWith('NOT_FOUND')) return grpc.status.NOT_FOUND;
  if (code.startsWith('INVALID') || code.endsWith('INVALID')) return grpc.status.INVALID_ARGUMENT;
  if (code === RpcErrorCode.UNAVAILABLE) return grpc.status.UNAVAILABLE;
  return grpc.status.FAILED_PRECONDITION;
}
