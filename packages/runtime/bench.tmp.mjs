import { Packr, Unpackr } from 'msgpackr';
const N = 1500, ROUNDS = 2000;
const recs = Array.from({ length: N }, (_, i) => ({ key: 'user-' + (i * 7 % 10000), amount: i % 100 }));
function time(name, fn) {
  for (let i = 0; i < 200; i++) fn();
  const t = process.cpuUsage(); const w = performance.now();
  for (let i = 0; i < ROUNDS; i++) fn();
  const c = process.cpuUsage(t);
  console.log(name.padEnd(40), ((c.user + c.system) * 1000 / (ROUNDS * N)).toFixed(1), 'ns/rec cpu', ((performance.now() - w) * 1e6 / (ROUNDS * N)).toFixed(1), 'ns/rec wall');
}
const plainP = new Packr({ useRecords: false }), plainU = new Unpackr({ useRecords: false });
const recP = new Packr({ moreTypes: true }), recU = new Unpackr({ moreTypes: true });
const plainBuf = plainP.pack(recs), recBuf = recP.pack(recs);
console.log('bytes plain', plainBuf.length, 'records', recBuf.length);
time('encode plain maps', () => plainP.pack(recs));
time('encode records', () => recP.pack(recs));
time('decode plain maps', () => plainU.unpack(plainBuf));
time('decode records', () => recU.unpack(recBuf));
// flat positional
const flat = new Array(N * 2);
time('encode flat (copy+pack)', () => { for (let i = 0; i < N; i++) { const r = recs[i]; flat[2 * i] = r.key; flat[2 * i + 1] = r.amount; } return recP.pack(flat); });
const flatBuf = recP.pack(flat);
time('decode flat (unpack+build)', () => { const a = recU.unpack(flatBuf); const out = new Array(N); for (let i = 0; i < N; i++) out[i] = { key: a[2 * i], amount: a[2 * i + 1] }; return out; });
// walker cost
function check(v, depth) {
  switch (typeof v) {
    case 'number': return v === 0 && 1 / v < 0 ? 1 : 0;
    case 'string': case 'boolean': case 'undefined': case 'bigint': return 0;
    case 'object': {
      if (v === null) return 0;
      const proto = Object.getPrototypeOf(v);
      if (proto === Object.prototype) { let s = 0; for (const k in v) s |= check(v[k], depth + 1); return s; }
      if (proto === Array.prototype) { let s = 0; for (let i = 0; i < v.length; i++) { const e = v[i]; if (e === undefined && !(i in v)) s |= 2; else s |= check(e, depth + 1); } return s; }
      return 4;
    }
    default: return 8;
  }
}
time('walk (generic check)', () => { let s = 0; for (let i = 0; i < N; i++) s |= check(recs[i], 0); return s; });
time('structuredClone batch', () => structuredClone(recs));
