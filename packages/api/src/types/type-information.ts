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

/** The kinds of the basic types (Types.STRING, NUMBER, BOOLEAN, BIGINT, BYTES, GENERIC). */
export type BasicKind = 'STRING' | 'NUMBER' | 'BOOLEAN' | 'BIGINT' | 'BYTES' | 'GENERIC';

/**
 * A record with named fields. `name` (a POJO's type name) and `defaults` (JSON of the
 * defaults given with Types.withDefault, see default-codec.ts) appear only when given, so a
 * ROW without them describes itself exactly as before they existed.
 */
export interface RowDescription {
  readonly kind: 'ROW';
  readonly name?: string;
  readonly fields: Readonly<Record<string, TypeDescription>>;
  readonly defaults?: Readonly<Record<string, unknown>>;
}

/** An Avro schema as the job gave it (JSON), so a restore can resolve it as the writer schema. */
export interface AvroDescription {
  readonly kind: 'AVRO';
  readonly schema: unknown;
}

/** A type with a serializer of the job's own; only its name and version are checked (Flink's TypeSerializerSnapshot). */
export interface CustomDescription {
  readonly kind: 'CUSTOM';
  readonly name: string;
  readonly version: number;
}

/** What `TypeInformation.describe()` returns: a basic kind, or a LIST, MAP, ROW, AVRO or CUSTOM description. */
export type TypeDescription =
  | { readonly kind: BasicKind }
  | { readonly kind: 'LIST'; readonly element: TypeDescription }
  | { readonly kind: 'MAP'; readonly key: TypeDescription; readonly value: TypeDescription }
  | RowDescription
  | AvroDescription
  | CustomDescription;
