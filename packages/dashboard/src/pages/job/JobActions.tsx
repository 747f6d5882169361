import { useContext, useState } from 'preact/hooks';
import { api, ApiError, type JobDetails } from '../../api.ts';
import { mayControlJob } from '../../permissions.ts';
import { Who } from '../../who-context.ts';

const TERMINAL = ['FINISHED', 'CANCELED', 'FAILED'];

type SavepointState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly since: number }
  | { readonly kind: 'done'; readonly path: string }
  | { readonly kind: 'failed'; readonly message: string };

function describe(error: unknown): string {
  return error instanceof ApiError ? `${error.message} [${error.code}]` : String(error);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Trigger a savepoint (and follow it to its path) and cancel the job, with a confirmation
 * step; shown only to whom may (an operator, an admin, the job's own submitter): a viewer sees
 * who owns the job and no buttons.
 */
export function JobActions(props: { job: JobDetails }) {
  const { job } = props;
  const who = useContext(Who);
  const owner = job.owner ?? null;
  const [savepoint, setSavepoint] = useState<SavepointState>({ kind: 'idle' });
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [cancelError, setCancelError] = useState<string | undefined>();
  const ended = TERMINAL.includes(job.state);

  const triggerSavepoint = async (): Promise<void> => {
    setSavepoint({ kind: 'running', since: Date.now() });
    try {
      const { 'request-id': requestId } = await api.triggerSavepoint(job.jid);
      for (;;) {
        const status = await api.savepointStatus(job.jid, requestId);
        if (status.status.id === 'COMPLETED') {
          const failure = status.operation?.['failure-cause'];
          setSavepoint(failure === undefined ? { kind: 'done', path: status.operation?.location ?? '' } : { kind: 'failed', message: `${failure['stack-trace']} [${failure.code}]` });
          return;
        }
        await sleep(250);
      }
    } catch (error) {
      setSavepoint({ kind: 'failed', message: describe(error) });
    }
  };

  const cancel = async (): Promise<void> => {
    setConfirmCancel(false);
    try {
      await api.cancel(job.jid);
    } catch (error) {
      setCancelError(describe(error));
    }
  };

  const ownerLine = owner === null ? null : (
    <span class="muted" data-testid="job-owner">
      submitted by {owner}
    </span>
  );
  if (!mayControlJob(who, owner)) return <div class="actions">{ownerLine}</div>;
  return (
    <div class="actions">
      {ownerLine}
      <button data-testid="trigger-savepoint" disabled={ended || !job.isStoppable || savepoint.kind === 'running'} onClick={() => void triggerSavepoint()} title={job.isStoppable ? '' : 'the job takes no checkpoints'}>
        Trigger savepoint
      </button>
      {confirmCancel ? (
        <span>
          Cancel this job?{' '}
          <button class="danger" data-testid="confirm-cancel" onClick={() => void cancel()}>
            Yes, cancel
          </button>{' '}
          <button onClick={() => setConfirmCancel(false)}>No</button>
        </span>
      ) : (
        <button class="danger" data-testid="cancel-job" disabled={ended} onClick={() => setConfirmCancel(true)}>
          Cancel job
        </button>
      )}
      <span data-testid="savepoint-status" class="savepoint-status">
        {savepoint.kind === 'running' && 'Savepoint in progress…'}
        {savepoint.kind === 'done' && `Savepoint completed: ${savepoint.path}`}
        {savepoint.kind === 'failed' && `Savepoint failed: ${savepoint.message}`}
      </span>
      {cancelError !== undefined && <span class="error">Cancel failed: {cancelError}</span>}
    </div>
  );
}
