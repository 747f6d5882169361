import { Types, type TypeInformation } from '@weir/api';
import { WeirError } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { RecordCodec } from './record-codec.ts';

function roundTrip(records: unknown[], type?: TypeInformation<unknown>, keyGroups?: number[]): { records: unknown[]; keyGroups: ArrayLike<number> | undefined } {
  const codec = new RecordCodec(type, "'Next'");
  const prepared = records.map((r) => codec.prepare(r));
  // A codec of its own on the other side: every buffer decodes on its own.
  return new RecordCodec(type, "'Next'").decode(codec.encode(prepared, keyGroups));
}

function one(value: unknown, type?: TypeInformation<unknown>): unknown {
  return roundTrip([value], type).records[0];
}

function refusal(value: unknown, type?: TypeInformation<unknown>): string {
  try {
    new RecordCodec(type, "'Next'").prepare(value);
  } catch (err) {
    expect(err).toBeInstanceOf(WeirError);
    expect((err as WeirError).code).toBe('RECORD_REFUSED');
    return (err as Error).message;
  }
  throw new Error('the record was not refused');
}

class Account {
  constructor(
    public owner: string,
    public balance: number,
  ) {}
  describe(): string {
    return `${this.owner}: ${this.balance}`;
  }
}

describe('RecordCodec: undeclared records keep every value structured clone supports', () => {
  it('keeps Map (object keys too), Set, Date, RegExp and the Error types', () => {
    const key = { id: 1 };
    const map = one(new Map<unknown, unknown>([['a', 1], [key, new Set([1, 'b'])]])) as Map<unknown, unknown>;
    expect(map).toBeInstanceOf(Map);
    expect([...map.keys()]).toEqual(['a', { id: 1 }]);
    expect([...map.values()][1]).toEqual(new Set([1, 'b']));
    expect(one(new Date(1_700_000_000_123))).toEqual(new Date(1_700_000_000_123));
    expect(one(/a+b/gi)).toEqual(/a+b/gi);
    const error = one(new RangeError('too far')) as Error;
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toBe('too far');
  });

  it('keeps typed arrays, Buffer apart from Uint8Array, ArrayBuffer and DataView', () => {
    const arrays = [
      new Int8Array([-1]),
      new Uint8Array([1, 2]),
      new Uint8ClampedArray([3]),
      new Int16Array([-2]),
      new Uint16Array([4]),
      new Int32Array([-5]),
      new Uint32Array([6]),
      new Float32Array([1.5]),
      new Float64Array([2.25]),
      new BigInt64Array([-7n]),
      new BigUint64Array([8n]),
      Buffer.from('hi'),
    ];
    const back = one(arrays) as ArrayBufferView[];
    expect(back.map((a) => a.constructor.name)).toEqual(arrays.map((a) => a.constructor.name));
    expect(back).toEqual(arrays);
    expect(one(new ArrayBuffer(3))).toBeInstanceOf(ArrayBuffer);
    expect(one(new DataView(new ArrayBuffer(2)))).toBeInstanceOf(DataView);
  });

  it('keeps BigInt of any size, -0, NaN, Infinity and undefined', () => {
    const bigints = [0n, 5n, -(2n ** 63n), 2n ** 64n - 1n, 2n ** 200n, -(2n ** 1000n) - 1n, 7n ** 30000n];
    expect(one(bigints)).toEqual(bigints);
    expect(Object.is(one(-0), -0)).toBe(true);
    const nested = one({ a: [-0, 0], b: new Map([['z', -0]]) }) as { a: number[]; b: Map<string, number> };
    expect(Object.is(nested.a[0], -0)).toBe(true);
    expect(Object.is(nested.a[1], 0)).toBe(true);
    expect(Object.is(nested.b.get('z'), -0)).toBe(true);
    expect(one([Number.NaN, Infinity, -Infinity])).toEqual([Number.NaN, Infinity, -Infinity]);
    const withUndefined = one({ a: undefined, b: 1 }) as object;
    expect(Object.keys(withUndefined)).toEqual(['a', 'b']);
  });

  it('keeps holes in sparse arrays', () => {
    // eslint-disable-next-line no-sparse-arrays
    const back = one({ list: [1, , 3, , ,] }) as { list: unknown[] };
    expect(back.list).toHaveLength(5);
    expect(Object.keys(back.list)).toEqual(['0', '2']);
    const holes = new Array(3);
    holes[1] = 'x';
    expect(Object.keys(one(holes) as unknown[])).toEqual(['1']);
  });

  it('keeps objects without a prototype, and an own __proto__ key', () => {
    const bare = Object.assign(Object.create(null) as object, { a: 1, nested: Object.assign(Object.create(null) as object, { b: 2 }) });
    const back = one(bare) as Record<string, Record<string, unknown>>;
    expect(Object.getPrototypeOf(back)).toBe(null);
    expect(Object.getPrototypeOf(back.nested)).toBe(null);
    expect({ ...back.nested }).toEqual({ b: 2 });
    const parsed = JSON.parse('{"__proto__": {"x": 1}, "a": 2}') as object;
    const parsedBack = one(parsed) as object;
    expect(Object.getPrototypeOf(parsedBack)).toBe(Object.prototype);
    expect(Object.keys(parsedBack)).toEqual(['__proto__', 'a']);
    expect(Object.getOwnPropertyDescriptor(parsedBack, '__proto__')?.value).toEqual({ x: 1 });
  });

  it('leaves a record it had to copy untouched', () => {
    const record = { n: -0, list: [1, , 3] };
    const codec = new RecordCodec(undefined, "'Next'");
    expect(codec.prepare(record)).not.toBe(record);
    expect(Object.is(record.n, -0)).toBe(true);
    const plain = { n: 1 };
    expect(codec.prepare(plain)).toBe(plain);
  });

  it('carries key groups with the records', () => {
    const back = roundTrip(['a', 'b', 'c'], undefined, [0, 127, 32767]);
    expect(back.records).toEqual(['a', 'b', 'c']);
    expect(Array.from(back.keyGroups!)).toEqual([0, 127, 32767]);
    expect(roundTrip(['a']).keyGroups).toBeUndefined();
  });

  it('decodes buffers of many record shapes, each on its own', () => {
    const records = Array.from({ length: 300 }, (_, i) => ({ [`k${i}`]: i, shared: 'x' }));
    expect(roundTrip(records).records).toEqual(records);
  });
});

describe('RecordCodec: undeclared values that cannot travel unchanged are refused, naming the field and what to do', () => {
  it('refuses a class instance', () => {
    expect(refusal({ owner: new Account('ann', 3) })).toBe(
      "cannot send a record to 'Next' unchanged: field 'owner' is an instance of class Account; it would arrive as a plain object, without its class and methods; " +
        "declare the stream's type so the class is registered and kept: .returns(Types.POJO(Account, { ...its fields })), or Types.CUSTOM({ name, version, serialize, deserialize }) to convert it yourself, or emit plain objects",
    );
    expect(refusal(new Account('ann', 3))).toMatch(/^cannot send a record to 'Next' unchanged: the record is an instance of class Account; /);
    expect(refusal({ m: new Map([['k', [1, new Account('a', 1)]]]) })).toMatch(/field 'm\.get\("k"\)\[1\]' is an instance of class Account/);
  });

  it('refuses functions, symbols, boxed primitives, built-ins it cannot carry, subclasses of built-ins, and cycles', () => {
    expect(refusal({ f: function format() {} })).toMatch(/field 'f' is a function \(format\); functions cannot be sent between tasks; emit data$/);
    expect(refusal({ s: Symbol('x') })).toMatch(/field 's' is a symbol;/);
    expect(refusal({ n: new Number(3) })).toMatch(/field 'n' is a Number object; it would arrive as a plain object; emit the primitive value$/);
    expect(refusal({ w: new WeakMap() })).toMatch(/field 'w' is a WeakMap; a WeakMap cannot be sent between tasks; convert it to data, or declare the stream's type as Types.CUSTOM/);
    class Tags extends Map<string, number> {}
    expect(refusal({ tags: new Tags() })).toMatch(/field 'tags' is an instance of class Tags;/);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(refusal(cyclic)).toMatch(/field 'self(\.self)+' is nested more than 256 levels deep; a record must not refer to itself \(a cycle\)/);
    expect(refusal({ 'odd key': () => 1 })).toMatch(/field '\["odd key"\]' is a function/);
  });
});

describe('RecordCodec: declared types drive the records', () => {
  it('gives records of a POJO type their class back', () => {
    const type = Types.POJO(Account, { owner: Types.STRING, balance: Types.NUMBER });
    const back = one(new Account('ann', 3), type as TypeInformation<unknown>) as Account;
    expect(back).toBeInstanceOf(Account);
    expect(back.describe()).toBe('ann: 3');
    const nested = Types.ROW({ accounts: Types.LIST(type), byName: Types.MAP(Types.STRING, type) });
    const record = { accounts: [new Account('a', 1)], byName: new Map([['b', new Account('b', 2)]]) };
    const nestedBack = one(record, nested as TypeInformation<unknown>) as typeof record;
    expect(nestedBack.accounts[0]).toBeInstanceOf(Account);
    expect(nestedBack.byName.get('b')!.describe()).toBe('b: 2');
  });

  it('refuses a record that does not fit its declared type, naming the field', () => {
    const type = Types.ROW({ key: Types.STRING, amount: Types.NUMBER }) as TypeInformation<unknown>;
    expect(refusal({ key: 'a', amount: '3' }, type)).toBe(
      "cannot send a record to 'Next' unchanged: field 'amount' is a string; the stream is declared as ROW<key: STRING, amount: NUMBER>, which makes it a NUMBER; " +
        'emit a NUMBER there, or declare the type it has with returns(...)',
    );
    expect(refusal({ key: 'a', amount: 1, extra: true }, type)).toBe(
      "cannot send a record to 'Next' unchanged: field 'extra' is not a field of ROW<key: STRING, amount: NUMBER>; the stream is declared as ROW<key: STRING, amount: NUMBER>; " +
        'declare the field in the type, or leave it out of the record',
    );
    const pojo = Types.POJO(Account, { owner: Types.STRING, balance: Types.NUMBER }) as TypeInformation<unknown>;
    expect(refusal({ owner: 'a', balance: 1 }, pojo)).toMatch(/the record is a plain object; the stream is declared as ROW Account<owner: STRING, balance: NUMBER>, which makes it a ROW Account/);
    expect(one({ key: null, amount: undefined }, type)).toEqual({ key: null, amount: undefined });
  });

  it('keeps -0 and holes in declared values too', () => {
    const type = Types.ROW({ n: Types.NUMBER, list: Types.LIST(Types.NUMBER) }) as TypeInformation<unknown>;
    // eslint-disable-next-line no-sparse-arrays
    const back = one({ n: -0, list: [1, , -0] }, type) as { n: number; list: number[] };
    expect(Object.is(back.n, -0)).toBe(true);
    expect(Object.keys(back.list)).toEqual(['0', '2']);
    expect(Object.is(back.list[2], -0)).toBe(true);
  });

  it('serializes a CUSTOM type with its own functions', () => {
    const type = Types.CUSTOM<Account>({
      name: 'Account',
      version: 1,
      serialize: (a) => [a.owner, a.balance],
      deserialize: (data) => new Account(...(data as [string, number])),
    }) as TypeInformation<unknown>;
    const back = one(new Account('ann', 3), type) as Account;
    expect(back).toBeInstanceOf(Account);
    expect(back.describe()).toBe('ann: 3');
    const broken = Types.CUSTOM<Account>({ name: 'Broken', version: 1, serialize: (a) => ({ a }), deserialize: (d) => d as Account }) as TypeInformation<unknown>;
    expect(refusal(new Account('x', 1), broken)).toMatch(/an instance of class Account \(in what serialize of Types.CUSTOM 'Broken' returned at a\)/);
  });
});

describe('RecordCodec: decoding', () => {
  it('fails bytes that are not a record buffer with RECORD_DECODE_FAILED', () => {
    const codec = new RecordCodec(undefined, "'Next'");
    for (const bytes of [Uint8Array.of(9, 1, 2), Uint8Array.of(0, 0xc1), Uint8Array.of(0, 0x05), Uint8Array.of(1, 5, 0, 0, 0)]) {
      let code: string | undefined;
      try {
        codec.decode(bytes);
      } catch (err) {
        code = (err as WeirError).code;
      }
      expect(code).toBe('RECORD_DECODE_FAILED');
    }
  });
});

describe('RecordCodec.copy (a chained branch of a fork)', () => {
  it('copies plain data deeply, sharing nothing with the original', () => {
    const record = { id: 1, name: 'a', tags: ['x', { deep: true }], when: new Date(5), byKey: new Map([['k', { n: 1 }]]), seen: new Set([1]), none: null, gone: undefined };
    const copy = new RecordCodec(undefined, "'Next'").copy(record) as typeof record;
    expect(copy).toEqual(record);
    expect(copy).not.toBe(record);
    expect(copy.tags[1]).not.toBe(record.tags[1]);
    expect(copy.when).not.toBe(record.when);
    expect(copy.byKey.get('k')).not.toBe(record.byKey.get('k'));
    expect(copy.seen).not.toBe(record.seen);
  });

  it('copies what is no plain data as the network delivers it: classes of a declared type, holes, bytes, -0', () => {
    const type = Types.POJO(Account, { owner: Types.STRING, balance: Types.NUMBER });
    const account = new Account('ann', 3);
    const copy = new RecordCodec(type, "'Next'").copy(account) as Account;
    expect(copy).not.toBe(account);
    expect(copy.describe()).toBe('ann: 3');
    // eslint-disable-next-line no-sparse-arrays
    const awkward = { holes: [1, , 3], bytes: Uint8Array.of(7), zero: -0 };
    const copied = new RecordCodec(undefined, "'Next'").copy(awkward) as typeof awkward;
    expect(Object.keys(copied.holes)).toEqual(['0', '2']);
    expect(copied.bytes).toEqual(Uint8Array.of(7));
    expect(copied.bytes).not.toBe(awkward.bytes);
    expect(Object.is(copied.zero, -0)).toBe(true);
  });

  it('refuses what cannot travel, as check does', () => {
    expect(() => new RecordCodec(undefined, "'Next'").copy({ f: () => 1 })).toThrow(/cannot send a record to 'Next' unchanged: field 'f'/);
  });
});
