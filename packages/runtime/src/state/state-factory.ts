import type { ReducingStateDescriptor, StateDescriptor, ValueStateDescriptor } from '@weir/api';
import type { Clock } from '@weir/common';
import { HeapListState, HeapMapState, HeapReducingState, HeapValueState } from './heap-states.ts';
import type { StateAccess } from './state-access.ts';
import { TtlListState, TtlMapState, TtlPolicy, TtlReducingState, TtlValueState } from './ttl-states.ts';

/**
 * The state object of a descriptor's kind over one state's values (a heap StateTable or a
 * LevelDB table): value, list, map or reducing state, behind the TTL decorators when the
 * descriptor has a time to live. Both backends create their states here.
 */
export function createState(descriptor: StateDescriptor<unknown>, table: StateAccess<unknown>, clock: Clock): unknown {
  const ttlConfig = descriptor.getTtlConfig();
  const access = table as StateAccess<never>;
  if (ttlConfig === undefined) {
    switch (descriptor.kind) {
      case 'value':
        return new HeapValueState(access, (descriptor as ValueStateDescriptor<unknown>).defaultValue);
      case 'list':
        return new HeapListState(access);
      case 'map':
        return new HeapMapState(access);
      case 'reducing':
        return new HeapReducingState(access, (descriptor as ReducingStateDescriptor<unknown>).reduceFunction);
    }
  }
  const ttl = new TtlPolicy(ttlConfig, clock);
  switch (descriptor.kind) {
    case 'value':
      return new TtlValueState(new HeapValueState(access, undefined), ttl, (descriptor as ValueStateDescriptor<unknown>).defaultValue);
    case 'list':
      return new TtlListState(new HeapListState(access), ttl);
    case 'map':
      return new TtlMapState(new HeapMapState(access), ttl);
    case 'reducing':
      return new TtlReducingState(new HeapValueState(access, undefined), ttl, (descriptor as ReducingStateDescriptor<unknown>).reduceFunction);
  }
}
