import { describe, expect, it } from 'vitest';
import { T } from '../validate/types.ts';
import { csvFormat, jsonFormat } from './formats.ts';

const FIELDS = [
  { name: 'name', type: T.STRING },
  { name: 'price', type: T.decimal(10, 2) },
  { name: 'ts', type: T.timestamp(3) },
  { name: 'n', type: T.INT },
];
const ROW = ['a, "quoted"', 1050n, Date.UTC(2026, 0, 2, 3, 4, 5, 6), null];

describe('filesystem formats', () => {
  it('csv: quotes fields with commas or quotes, writes null as empty, and reads back what it wrote', () => {
    const csv = csvFormat(FIELDS);
    const line = csv.serialize(ROW);
    expect(line).toBe('"a, ""quoted""",10.50,2026-01-02 03:04:05.006,');
    expect(csv.deserialize(line)).toEqual(ROW);
    expect(() => csv.deserialize('x,1')).toThrow('CSV line has 2 fields, the table 4 (name, price, ts, n): x,1');
  });

  it('json: one object per line keyed by column, DECIMAL as a number, and read back', () => {
    const json = jsonFormat(FIELDS);
    const line = json.serialize(ROW);
    expect(line).toBe('{"name":"a, \\"quoted\\"","price":10.50,"ts":"2026-01-02 03:04:05.006","n":null}');
    expect(json.deserialize(line)).toEqual(ROW);
  });
});
