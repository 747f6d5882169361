import type { OperatorMetadata } from '@weir/common';

/** How an operator of a checkpoint is named in messages: by uid when it had one, always with its name and ID. */
export function operatorLabel(operator: Pick<OperatorMetadata, 'operatorId' | 'uid' | 'name'>): string {
  return (operator.uid ?? '') === ''
    ? `"${operator.name}" (ID ${operator.operatorId}, no uid)`
    : `uid '${operator.uid}' ("${operator.name}", ID ${operator.operatorId})`;
}
