/**
 * Source text shared by job texts that check values keep their types (record-types-jobs.ts,
 * state-types-jobs.ts): `rich(i)` holds everything MessagePack alone changes or chokes on, and
 * `richProblems(r, i)` says what of it changed, an entry each.
 */
export const RICH_VALUES = `
function rich(i: number) {
  const bare = Object.create(null);
  bare.i = i;
  const holes: number[] = [i];
  holes[2] = -i;
  return {
    i,
    map: new Map<unknown, unknown>([['n', i], [{ id: i }, new Set([i, 'x'])]]),
    set: new Set([i]),
    bytes: Uint8Array.of(i % 256, 7),
    buffer: Buffer.from([1, 2]),
    when: new Date(1_700_000_000_000 + i),
    big: 2n ** 100n + BigInt(i),
    zero: -0,
    holes,
    bare,
  };
}

function richProblems(r: any, i: number): string[] {
  const wrong: string[] = [];
  if (r.i !== i) wrong.push('i is ' + r.i);
  if (!(r.map instanceof Map) || r.map.get('n') !== i) wrong.push('map is ' + Object.prototype.toString.call(r.map));
  const objectKey = r.map instanceof Map ? [...r.map.keys()][1] : undefined;
  if (objectKey?.id !== i || !(r.map.get(objectKey) instanceof Set)) wrong.push('map object key or its Set value changed');
  if (!(r.set instanceof Set) || !r.set.has(i)) wrong.push('set is ' + Object.prototype.toString.call(r.set));
  if (r.bytes?.constructor !== Uint8Array) wrong.push('bytes is a ' + r.bytes?.constructor?.name);
  if (!Buffer.isBuffer(r.buffer)) wrong.push('buffer is a ' + r.buffer?.constructor?.name);
  if (!(r.when instanceof Date) || r.when.getTime() !== 1_700_000_000_000 + i) wrong.push('when is ' + String(r.when));
  if (r.big !== 2n ** 100n + BigInt(i)) wrong.push('big is ' + typeof r.big + ' ' + String(r.big));
  if (!Object.is(r.zero, -0)) wrong.push('zero is ' + (Object.is(r.zero, 0) ? '+0' : String(r.zero)));
  if (r.holes?.length !== 3 || 1 in r.holes || r.holes[2] !== -i) wrong.push('holes is ' + JSON.stringify(r.holes === undefined ? r.holes : Object.keys(r.holes)));
  if (r.bare === undefined || Object.getPrototypeOf(r.bare) !== null || r.bare.i !== i) wrong.push('bare got a prototype');
  return wrong;
}
`;
