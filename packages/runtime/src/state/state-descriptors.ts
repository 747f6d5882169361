import type { MapStateDescriptor, StateDescriptor } from '@weir/api';
import { WeirError, type StateMetaInfo } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';

export type StateKind = StateDescriptor<unknown>['kind'];

/** The description of the runtime's own states (reduce's accumulator): any value, no schema to check. */
export const GENERIC_META: StateMetaInfo = { kind: 'value', type: { kind: 'GENERIC' } };

/** The runtime's own states live under a prefix users do not pick by accident. */
export function internalStateName(name: string): string {
  return `__weir_${name}`;
}

export function metaOf(descriptor: StateDescriptor<unknown>): StateMetaInfo {
  return { kind: descriptor.kind, type: descriptor.type.describe() };
}

export function mapMetaOf(descriptor: MapStateDescriptor<unknown, unknown>): StateMetaInfo {
  return { ...metaOf(descriptor), keyType: descriptor.keyType.describe() };
}

export function descriptorMismatch(operatorLabel: string, name: string, asked: StateKind, existing: StateKind): WeirError {
  return new WeirError(
    RuntimeErrorCode.STATE_DESCRIPTOR_MISMATCH,
    `${operatorLabel} asked for ${asked} state '${name}', but '${name}' is already ${existing} state (registered or restored); ` +
      `give each state of an operator its own name, and keep a state's kind across restores`,
  );
}
