import type { BasicKind, TypeDescription, TypeInformation } from './type-information.ts';

/** A class whose instances a POJO type keeps: records arrive as instances of it (its constructor is not called). */
export type PojoClass = abstract new (...args: never[]) => object;

/**
 * What the runtime's record codec needs of a declared type beyond its description (which is
 * plain JSON): the declared types of its parts, a POJO's class, a CUSTOM type's converters.
 */
export type TypeStructure =
  | { readonly kind: BasicKind }
  | { readonly kind: 'LIST'; readonly element: TypeInformation<unknown> }
  | { readonly kind: 'MAP'; readonly key: TypeInformation<unknown>; readonly value: TypeInformation<unknown> }
  | {
      readonly kind: 'ROW';
      readonly name: string | undefined;
      readonly fields: Readonly<Record<string, TypeInformation<unknown>>>;
      readonly pojoClass: PojoClass | undefined;
    }
  | { readonly kind: 'AVRO' }
  | {
      readonly kind: 'CUSTOM';
      readonly name: string;
      /** The custom type's `serialize`, when it has one. */
      readonly serialize: ((value: unknown) => unknown) | undefined;
      /** The custom type's `deserialize`, when it has one. */
      readonly deserialize: ((data: unknown) => unknown) | undefined;
    };

/** Structures by the TypeInformation the `Types` factories made; descriptions have no room for functions or classes. */
const structures = new WeakMap<TypeInformation<unknown>, TypeStructure>();

export function registerStructure<T>(type: TypeInformation<T>, structure: TypeStructure): TypeInformation<T> {
  structures.set(type as TypeInformation<unknown>, structure);
  return type;
}

/**
 * The structure of a declared type. A TypeInformation that no `Types` factory made (a job's
 * own implementation of the interface) is known by its description alone: no classes and no
 * converters, its parts typed as described.
 */
export function typeStructure(type: TypeInformation<unknown>): TypeStructure {
  return structures.get(type) ?? structureOfDescription(type.describe());
}

function structureOfDescription(description: TypeDescription): TypeStructure {
  switch (description.kind) {
    case 'LIST':
      return { kind: 'LIST', element: describedOnly(description.element) };
    case 'MAP':
      return { kind: 'MAP', key: describedOnly(description.key), value: describedOnly(description.value) };
    case 'ROW': {
      const fields: Record<string, TypeInformation<unknown>> = {};
      for (const [field, type] of Object.entries(description.fields)) fields[field] = describedOnly(type);
      return { kind: 'ROW', name: description.name, fields, pojoClass: undefined };
    }
    case 'AVRO':
      return { kind: 'AVRO' };
    case 'CUSTOM':
      return { kind: 'CUSTOM', name: description.name, serialize: undefined, deserialize: undefined };
    default:
      return { kind: description.kind };
  }
}

function describedOnly(description: TypeDescription): TypeInformation<unknown> {
  return { name: description.kind, describe: () => description };
}
