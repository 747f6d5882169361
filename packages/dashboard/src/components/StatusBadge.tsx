/** A job, task or checkpoint status in its colour. */
export function StatusBadge(props: { status: string; testId?: string }) {
  return (
    <span class={`badge status-${props.status.toLowerCase()}`} data-testid={props.testId}>
      {props.status}
    </span>
  );
}
