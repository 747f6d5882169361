import { addExtension } from 'msgpackr';

/**
 * The values msgpackr would change on the way: -0 (written as the integer 0), an array with
 * holes (the holes come back as undefined), an object without a prototype (it comes back
 * with one) and an object with an own `__proto__` key (it comes back as `__proto_`). A record
 * holding one is copied once, with each such value replaced by one of these wrappers, which
 * the extensions below write so that it decodes to the original.
 *
 * State is written without record structures (each value stands alone), where msgpackr writes
 * a Map as a MessagePack map that reads back as a plain object: state values carry their Maps
 * as MapEntries.
 */
export class NegativeZero {}
export class HoleyArray {
  constructor(
    readonly length: number,
    /** index, value, index, value... of the elements present. */
    readonly entries: unknown[],
  ) {}
}
export class ObjectEntries {
  constructor(
    readonly nullPrototype: boolean,
    /** key, value, key, value... */
    readonly entries: unknown[],
  ) {}
}

export class MapEntries {
  constructor(
    /** key, value, key, value... */
    readonly entries: unknown[],
  ) {}
}

export const NEGATIVE_ZERO = new NegativeZero();

/** Extension types no msgpackr built-in uses: 'H', 'M', 'O' and 'Z' ('P' is @weir/common's packed operator state entry). */
const HOLEY_ARRAY = 0x48;
const MAP_ENTRIES = 0x4d;
const OBJECT_ENTRIES = 0x4f;
const NEGATIVE_ZERO_TYPE = 0x5a;

addExtension({
  Class: NegativeZero,
  type: NEGATIVE_ZERO_TYPE,
  // A float64 -0 is plain MessagePack that msgpackr decodes to -0: no extension needed to read it.
  pack(_value: unknown, allocate: (size: number) => { target: Uint8Array; targetView: DataView; position: number }) {
    const { target, targetView, position } = allocate(9);
    target[position] = 0xcb;
    targetView.setFloat64(position + 1, -0);
  },
} as never);

addExtension({
  Class: HoleyArray,
  type: HOLEY_ARRAY,
  write: (array: HoleyArray) => [array.length, ...array.entries],
  read: (data: unknown[]) => {
    const array = new Array<unknown>(data[0] as number);
    for (let i = 1; i < data.length; i += 2) array[data[i] as number] = data[i + 1];
    return array;
  },
});

addExtension({
  Class: ObjectEntries,
  type: OBJECT_ENTRIES,
  write: (object: ObjectEntries) => [object.nullPrototype, ...object.entries],
  read: (data: unknown[]) => {
    const object: Record<string, unknown> = data[0] === true ? Object.create(null) : {};
    for (let i = 1; i < data.length; i += 2) {
      // On an object with a prototype, assigning `__proto__` would set the prototype.
      Object.defineProperty(object, data[i] as string, { value: data[i + 1], writable: true, enumerable: true, configurable: true });
    }
    return object;
  },
});

addExtension({
  Class: MapEntries,
  type: MAP_ENTRIES,
  write: (map: MapEntries) => map.entries,
  read: (data: unknown[]) => {
    const map = new Map<unknown, unknown>();
    for (let i = 0; i < data.length; i += 2) map.set(data[i], data[i + 1]);
    return map;
  },
});
