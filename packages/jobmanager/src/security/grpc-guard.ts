import { WeirError, describeError, type Logger } from '@weir/common';
import { toServiceError, verifiedPeerCertificate, type JobServiceHandlers, type TaskManagerServiceHandlers, type grpc } from '@weir/rpc';
import { SecurityErrorCode, authorize, principalId, type Action, type ClusterSecurity, type Principal } from '@weir/security';
import { setCallPrincipal, type JobOwners } from './job-owners.ts';

type AnyCall = {
  readonly request?: { readonly jobId?: string; readonly terminate?: string };
  readonly metadata: grpc.Metadata;
  getPeer(): string;
  getAuthContext: grpc.ServerUnaryCall<unknown, unknown>['getAuthContext'];
  emit(event: 'error', error: unknown): boolean;
};
type Callback = (error: unknown, value?: unknown) => void;
type Handler = (call: AnyCall, callback?: Callback) => void;

/** The action of each JobService method; the rest read. */
function actionOf(method: string, call: AnyCall): Action {
  switch (method) {
    case 'SubmitJob':
      return 'submit';
    case 'CancelJob':
      return 'cancel';
    case 'TriggerSavepoint':
      // Cancel- and stop-with-savepoint end the job: they take what cancel and stop take.
      return call.request?.terminate === 'CANCEL' ? 'cancel' : call.request?.terminate === 'STOP' ? 'stop' : 'savepoint';
    case 'TriggerCheckpoint':
      return 'checkpoint';
    case 'DisposeSavepoint':
      return 'dispose-savepoint';
    case 'FetchResults':
      return 'read-results';
    default:
      return 'read';
  }
}

function failCall(call: AnyCall, callback: Callback | undefined, err: unknown): void {
  const error = toServiceError(err);
  if (callback === undefined) call.emit('error', error);
  else callback(error);
}

/**
 * The JobService behind authentication and authorization: each call's `authorization`
 * metadata names its principal (Authenticator), `authorize` decides, and each mutating call
 * leaves one audit line with its result. The handler finds the principal with callPrincipal
 * (a submission records it as the job's owner). With authentication off every caller is an admin, nothing is audited: as before.
 */
export function guardJobService(handlers: JobServiceHandlers, security: ClusterSecurity, owners: JobOwners): JobServiceHandlers {
  const inner = handlers as unknown as Record<string, Handler>;
  const guarded: Record<string, Handler> = {};
  for (const method of Object.keys(inner)) {
    guarded[method] = (call, callback) => {
      const action = actionOf(method, call);
      const jobId = call.request?.jobId === '' ? undefined : call.request?.jobId;
      const from = call.getPeer();
      const audit = (principal: Principal | undefined, result: string, job = jobId) => {
        // A query's client fetches its rows every second: only a refused fetch is worth a line.
        const audited = action === 'read-results' ? result.startsWith('refused') : action !== 'read';
        if (audited && security.authenticator.enabled) security.audit.record({ principal, action, jobId: job, from, result, via: 'grpc' });
      };
      const header = call.metadata.get('authorization')[0];
      security.authenticator.authenticate(typeof header === 'string' ? header : undefined).then(
        (principal) => {
          const decision = authorize(principal, action, jobId === undefined ? undefined : owners.ownerOf(jobId));
          if (!decision.allowed) {
            audit(principal, `refused: ${decision.reason}`);
            failCall(call, callback, new WeirError(SecurityErrorCode.PERMISSION_DENIED, decision.reason));
            return;
          }
          setCallPrincipal(call, principal);
          if (callback === undefined) {
            inner[method]!(call);
            return;
          }
          inner[method]!(call, (error, value) => {
            const submitted = action === 'submit' && error == null ? (value as { jobId?: string } | undefined)?.jobId : undefined;
            audit(principal, error == null ? 'ok' : `failed: ${(error as { details?: string }).details ?? describeError(error)}`, submitted ?? jobId);
            callback(error, value);
          });
        },
        (err: unknown) => {
          audit(undefined, `refused: ${describeError(err)}`);
          failCall(call, callback, err);
        },
      );
    };
  }
  return guarded as unknown as JobServiceHandlers;
}

/**
 * With internal TLS, the TaskManagerService (register, control stream, bundles) only for
 * callers that showed a certificate the cluster CA signed: the JobManager's port also takes
 * CLI clients without one, so the check is per call. Without internal TLS, as before.
 */
export function guardTaskManagerService(handlers: TaskManagerServiceHandlers, security: ClusterSecurity, logger: Logger): TaskManagerServiceHandlers {
  if (security.settings.internalTls === undefined) return handlers;
  const inner = handlers as unknown as Record<string, Handler>;
  const guarded: Record<string, Handler> = {};
  for (const method of Object.keys(inner)) {
    guarded[method] = (call, callback) => {
      if (verifiedPeerCertificate(call) === undefined) {
        logger.warn({ from: call.getPeer(), method }, `refused TaskManagerService.${method} from ${call.getPeer()}: no client certificate the cluster CA signed`);
        failCall(call, callback, new WeirError(SecurityErrorCode.UNAUTHENTICATED, `TaskManagerService.${method} takes a client certificate signed by the cluster's CA (security.ssl.internal.cert/.key on the TaskManager); none was shown`));
        return;
      }
      inner[method]!(call, callback);
    };
  }
  return guarded as unknown as TaskManagerServiceHandlers;
}
