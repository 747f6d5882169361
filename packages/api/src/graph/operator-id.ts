import { createHash } from 'node:crypto';
import type { OperatorKind, StreamGraph, StreamNode } from './stream-graph.ts';

function sha256Hex32(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}

/** The operator ID of an operator with `.uid(uid)`: the same uid gives the same ID in every version of the job. */
export function operatorIdForUid(uid: string): string {
  return sha256Hex32(uid);
}

export interface GeneratedIdInput {
  readonly operatorId: string;
  readonly inputIndex: 0 | 1;
}

/**
 * Assigns IDs to operators without a uid from the topology alone: an operator's kind, the
 * IDs of what it reads from, and its ordinal among the earlier operators with the same kind
 * and inputs (so two maps on one stream differ). Names and parallelism are left out, so
 * renaming or rescaling keeps IDs; adding an operator elsewhere does not shift them either.
 */
export class GeneratedOperatorIds {
  readonly #seen = new Map<string, number>();

  next(kind: OperatorKind, inputs: readonly GeneratedIdInput[]): string {
    const signature = JSON.stringify([kind, inputs.map((i) => [i.operatorId, i.inputIndex])]);
    const ordinal = this.#seen.get(signature) ?? 0;
    this.#seen.set(signature, ordinal + 1);
    return sha256Hex32(`weir-generated-operator-id:${signature}:${ordinal}`);
  }
}

/** Operators whose state would not survive a change of the job's topology; the JobManager warns about these. */
export function operatorsWithoutUid(graph: StreamGraph): StreamNode[] {
  return graph.nodes.filter((node) => node.uid === undefined);
}
