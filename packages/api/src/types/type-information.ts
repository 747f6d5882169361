/**
 * Describes the type of records or state values (Flink's TypeInformation). Records and state
 * travel as MessagePack whatever the type; the description is what a restore checks schema
 * compatibility against, and what keys are hashed by.
 */
export interface TypeInformation<T> {
  /** Stable, human-readable type name such as "STRING" or "ROW<word: STRING, count: NUMBER>". */
  readonly name: string;
  /** A JSON-serializable snapshot of the schema, stored next to state. */
  describe(): TypeDescription;
  /** Phantom field carrying T; never set at run time. */
  readonly __type?: T;
}

export type TypeDescription =
  | { readonly kind: 'STRING' | 'NUMBER' | 'BOOLEAN' | 'BIGINT' | 'BYTES' | 'GENERIC' }
  | { readonly kind: 'LIST'; readonly element: TypeDescription }
  | { readonly kind: 'MAP'; readonly key: TypeDescription; readonly value: TypeDescription }
  | { readonly kind: 'ROW'; readonly fields: Readonly<Record<string, TypeDescription>> };
