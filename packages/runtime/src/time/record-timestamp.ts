/**
 * The event-time timestamp of the record being passed down a task's chain (Flink keeps it in
 * the StreamRecord). One per task: inputs set it before handing a record to the head
 * operator, operators that change it (timestamp assigners, windows, timers) set it before
 * they emit, record writers read it into the buffer. Undefined: the record has none.
 */
export class RecordTimestamp {
  value: number | undefined = undefined;
}
