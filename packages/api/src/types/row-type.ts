import { WeirError } from '@weir/common';
import { ApiErrorCode } from '../errors.ts';
import { encodeDefault } from './default-values.ts';
import type { RowDescription, TypeDescription, TypeInformation } from './type-information.ts';

/** A ROW field with the value it takes in restored records that lack it (Types.withDefault). */
export class FieldWithDefault<T> {
  /** The default as the ROW's description stores it. */
  readonly storedDefault: unknown;

  constructor(
    readonly type: TypeInformation<T>,
    readonly defaultValue: T,
  ) {
    const t = requireType(type, 'the type of Types.withDefault');
    this.storedDefault = encodeDefault(t.describe(), defaultValue, `Types.withDefault(${t.name}, ...)`);
    Object.freeze(this);
  }
}

/** What a ROW field may be declared as: a type, or a type with its default. */
export type RowField = TypeInformation<unknown> | FieldWithDefault<unknown>;

/** The value type of a ROW whose fields are declared as F. */
export type RowOf<F> = {
  [N in keyof F]: F[N] extends FieldWithDefault<infer T> ? T : F[N] extends TypeInformation<infer T> ? T : never;
};

export function requireType(value: unknown, where: string): TypeInformation<unknown> {
  const candidate = value as Partial<TypeInformation<unknown>> | null | undefined;
  if (candidate === null || typeof candidate !== 'object' || typeof candidate.name !== 'string' || typeof candidate.describe !== 'function') {
    const hint = value instanceof FieldWithDefault ? ' (Types.withDefault only declares a ROW field)' : '';
    throw new WeirError(ApiErrorCode.INVALID_TYPE, `${where} must be a TypeInformation such as Types.STRING, got ${String(value)}${hint}`);
  }
  return candidate as TypeInformation<unknown>;
}

/** The description of a ROW, or of a POJO when named. */
export function describeRow(name: string | undefined, fields: Record<string, RowField>): RowDescription {
  const factory = name === undefined ? 'Types.ROW' : `Types.POJO('${name}', ...)`;
  if (fields === null || typeof fields !== 'object' || Object.keys(fields).length === 0) {
    const example = name === undefined ? 'Types.ROW({ word: Types.STRING })' : `Types.POJO('${name}', { word: Types.STRING })`;
    throw new WeirError(ApiErrorCode.INVALID_TYPE, `${factory} needs at least one field, as in ${example}`);
  }
  const described: Record<string, TypeDescription> = {};
  const defaults: Record<string, unknown> = {};
  for (const [field, declared] of Object.entries(fields)) {
    if (declared instanceof FieldWithDefault) {
      described[field] = declared.type.describe();
      defaults[field] = declared.storedDefault;
    } else {
      described[field] = requireType(declared, `field '${field}' of ${factory}`).describe();
    }
  }
  return Object.freeze({
    kind: 'ROW',
    ...(name === undefined ? {} : { name }),
    fields: Object.freeze(described),
    ...(Object.keys(defaults).length === 0 ? {} : { defaults: Object.freeze(defaults) }),
  });
}
