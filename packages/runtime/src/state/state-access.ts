/**
 * What the state kinds (heap-states.ts) need of the values of one state, for the current
 * key: the heap's copy-on-write StateTable and LevelDB's write-cached LevelStateTable both
 * provide it, so value, list, map and reducing state behave the same on either backend.
 */
export interface StateAccess<V> {
  get(): V | undefined;
  put(value: V): void;
  /** Puts a new container (array, Map) the caller just created. */
  putContainer(container: V & object): void;
  /** The current key's container, safe to change in place; `copy` makes a private copy when the backend shares it with a snapshot. */
  getContainerForUpdate(copy: (shared: V) => V & object): V | undefined;
  remove(): void;
}
