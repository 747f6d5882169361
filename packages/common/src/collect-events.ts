/**
 * A collect sink's events (Flink's CollectSinkFunction and CollectSinkOperatorCoordinator):
 * the sink sends its rows to the JobManager in batches, never more than the credit the
 * JobManager granted, so a client that reads slowly back-pressures the job instead of the
 * JobManager's buffer growing. They travel as the split sources' events do (the control
 * stream's OperatorEvent, MessagePack).
 */

/** Sink → JobManager: rows in order; an empty batch registers the sink and asks for credit. */
export interface CollectRowsEvent {
  readonly kind: 'collect-rows';
  readonly rows: readonly unknown[];
}

/** JobManager → sink: it may send `credits` more rows. */
export interface CollectCreditEvent {
  readonly kind: 'collect-credit';
  readonly credits: number;
}

export function parseCollectRows(event: { kind?: unknown; rows?: unknown }): CollectRowsEvent | undefined {
  return event.kind === 'collect-rows' && Array.isArray(event.rows) ? { kind: 'collect-rows', rows: event.rows } : undefined;
}

export function parseCollectCredit(event: { kind?: unknown; credits?: unknown }): CollectCreditEvent | undefined {
  const credits = event.credits;
  return event.kind === 'collect-credit' && typeof credits === 'number' && Number.isInteger(credits) && credits > 0 ? { kind: 'collect-credit', credits } : undefined;
}
