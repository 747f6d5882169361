import { createRequire } from 'node:module';

type Etcd3Module = typeof import('etcd3');
type CockatielModule = typeof import('cockatiel');

const require = createRequire(import.meta.url);
let etcd3: Etcd3Module | undefined;
let cockatiel: CockatielModule | undefined;

/**
 * The etcd3 package, loaded on first use: loading it (its own gRPC client and protos) costs
 * about half a second of CPU, which every TaskManager and CLI call without HA would pay at
 * start-up, since they import @weir/ha.
 */
export function etcd3Module(): Etcd3Module {
  return (etcd3 ??= require('etcd3') as Etcd3Module);
}

/** cockatiel, loaded with etcd3 on first use, for the same reason. */
export function cockatielModule(): CockatielModule {
  return (cockatiel ??= require('cockatiel') as CockatielModule);
}
