import { describe, expect, it } from 'vitest';
import { KeyedFunctionHarness, row } from '../testing/keyed-function.ts';
import { ChangelogNormalizeFunction } from './changelog-normalize.ts';

describe('ChangelogNormalizeFunction', () => {
  it("an upsert source's +U/-D rows of one key as a retract changelog: +I first, -U/+U on a change, nothing for the same row, -D of the last row", () => {
    const h = new KeyedFunctionHarness();
    const fn = new ChangelogNormalizeFunction();
    fn.setRuntimeContext(h.runtimeContext);
    fn.open();
    const add = (kind: '+U' | '-D', ...fields: unknown[]) => fn.processElement(row(kind, ...fields), h.context as never, h.collector);
    add('-D', 'ann', null);
    expect(h.take()).toEqual([]);
    add('+U', 'ann', 1);
    add('+U', 'ann', 2);
    add('+U', 'ann', 2);
    add('-D', 'ann', null);
    add('-D', 'ann', null);
    add('+U', 'ann', 5);
    expect(h.take()).toEqual(['+I["ann",1]', '-U["ann",1]', '+U["ann",2]', '-D["ann",2]', '+I["ann",5]']);
  });
});
