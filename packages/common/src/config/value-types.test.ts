import { describe, expect, it } from 'vitest';
import { parseValue } from './value-types.ts';

describe('parseValue', () => {
  it.each([
    ['string', 'host-1', 'host-1'],
    ['string', 42, '42'],
    ['string', '', ''],
    ['port', 6123, 6123],
    ['port', '6123', 6123],
    ['port', 0, 0],
    ['port', 65535, 65535],
    ['int', '-1', -1],
    ['int', 7, 7],
    ['positiveInt', '3', 3],
    ['duration', 500, 500],
    ['duration', '500', 500],
    ['duration', '10s', 10_000],
    ['portRange', '', ''],
    ['portRange', 9249, '9249'],
    ['portRange', '9249-9260', '9249-9260'],
    ['portRange', ' 9249 - 9260 ', '9249-9260'],
    ['portRange', '9249-9249', '9249'],
  ] as const)('%s accepts %j as %j', (type, raw, expected) => {
    expect(parseValue(type, raw)).toBe(expected);
  });

  it.each([
    ['string', null],
    ['string', ['a']],
    ['port', 65536],
    ['port', -1],
    ['port', '61 23'],
    ['port', 1.5],
    ['int', 'ten'],
    ['int', ''],
    ['int', true],
    ['positiveInt', 0],
    ['positiveInt', '-2'],
    ['duration', -1],
    ['duration', 'soon'],
    ['duration', 2.5],
    ['portRange', '0'],
    ['portRange', '9260-9249'],
    ['portRange', '9249-70000'],
    ['portRange', '9249,9250'],
    ['portRange', true],
  ] as const)('%s rejects %j', (type, raw) => {
    expect(parseValue(type, raw)).toBeUndefined();
  });
});

describe('parseValue for number, boolean and enum keys', () => {
  it('accepts what the type means and nothing else', () => {
    expect(parseValue('number', '1.5')).toBe(1.5);
    expect(parseValue('number', 2)).toBe(2);
    expect(parseValue('number', '-1')).toBeUndefined();
    expect(parseValue('number', 'fast')).toBeUndefined();
    expect(parseValue('boolean', 'true')).toBe(true);
    expect(parseValue('boolean', false)).toBe(false);
    expect(parseValue('boolean', 'yes')).toBeUndefined();
    expect(parseValue('enum', 'AT_LEAST_ONCE', ['EXACTLY_ONCE', 'AT_LEAST_ONCE'])).toBe('AT_LEAST_ONCE');
    expect(parseValue('enum', 'at_least_once', ['EXACTLY_ONCE', 'AT_LEAST_ONCE'])).toBeUndefined();
  });
});
