import type { TypeDescription } from './type-information.ts';

/**
 * The TypeInformation name of a description. Restored descriptions come without their
 * TypeInformation, so error messages name both sides through this one function, and the
 * `Types` factories name their types with it too.
 */
export function typeName(description: TypeDescription): string {
  switch (description.kind) {
    case 'LIST':
      return `LIST<${typeName(description.element)}>`;
    case 'MAP':
      return `MAP<${typeName(description.key)}, ${typeName(description.value)}>`;
    case 'ROW': {
      const fields = Object.entries(description.fields).map(([field, type]) => `${field}: ${typeName(type)}`);
      return `ROW${description.name === undefined ? '' : ` ${description.name}`}<${fields.join(', ')}>`;
    }
    case 'AVRO':
      return `AVRO<${avroSchemaName(description.schema)}>`;
    case 'CUSTOM':
      return `CUSTOM<${description.name}, version ${description.version}>`;
    default:
      return description.kind;
  }
}

/** A named Avro type's full name, else its primitive or complex type name ('union' for a union). */
function avroSchemaName(schema: unknown): string {
  if (typeof schema === 'string') return schema;
  if (Array.isArray(schema)) return 'union';
  if (schema !== null && typeof schema === 'object') {
    const { name, namespace, type } = schema as { name?: unknown; namespace?: unknown; type?: unknown };
    if (typeof name === 'string') return typeof namespace === 'string' && namespace !== '' && !name.includes('.') ? `${namespace}.${name}` : name;
    if (typeof type === 'string') return type;
  }
  return 'unknown';
}
