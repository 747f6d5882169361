import { MapStateDescriptor, type StateDescriptor } from '@weir/api';
import { WeirError, type StateMetaInfo } from '@weir/common';
import { RuntimeErrorCode } from '../errors.ts';

export type StateKind = StateDescriptor<unknown>['kind'];

/** The description of the runtime's own states (reduce's accumulator): any value, no schema to check. */
export const GENERIC_META: StateMetaInfo = { kind: 'value', type: { kind: 'GENERIC' } };

/** The runtime's own states live under a prefix users do not pick by accident. */
export function internalStateName(name: string): string {
  return `__weir_${name}`;
}

/** The description a state is checkpointed with: kind, value type (and key type of map state), time to live. */
export function metaOf(descriptor: StateDescriptor<unknown>): StateMetaInfo {
  const ttl = descriptor.getTtlConfig();
  const keyType = descriptor instanceof MapStateDescriptor ? { keyType: (descriptor as MapStateDescriptor<unknown, unknown>).keyType.describe() } : {};
  return {
    kind: descriptor.kind,
    type: descriptor.type.describe(),
    ...keyType,
    ...(ttl === undefined ? {} : { ttl: { ttlMs: ttl.ttlMs, cleanupFullSnapshot: ttl.cleanupInFullSnapshot } }),
  };
}

/** A restored state registered with time to live turned on or off: its stored values cannot be read either way. */
export function checkTtlUnchanged(operatorLabel: string, name: string, restored: StateMetaInfo, current: StateMetaInfo): void {
  if ((restored.ttl === undefined) === (current.ttl === undefined)) return;
  const was = restored.ttl === undefined ? 'without' : 'with';
  const now = current.ttl === undefined ? 'without' : 'with';
  throw new WeirError(
    RuntimeErrorCode.STATE_DESCRIPTOR_MISMATCH,
    `${operatorLabel} registers state '${name}' ${now} a time to live, but the checkpoint holds it ${was} one; ` +
      `turning TTL on or off for an existing state is not supported: keep its StateTtlConfig, or give the state a new name`,
  );
}

export function descriptorMismatch(operatorLabel: string, name: string, asked: StateKind, existing: StateKind): WeirError {
  return new WeirError(
    RuntimeErrorCode.STATE_DESCRIPTOR_MISMATCH,
    `${operatorLabel} asked for ${asked} state '${name}', but '${name}' is already ${existing} state (registered or restored); ` +
      `give each state of an operator its own name, and keep a state's kind across restores`,
  );
}
