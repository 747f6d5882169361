import { describe, expect, it } from 'vitest';
import { DiscardingSink } from './discarding-sink.ts';

describe('DiscardingSink', () => {
  it('drops records and counts them over its writers', () => {
    const sink = new DiscardingSink<number>();
    const a = sink.createWriter();
    const b = sink.createWriter();
    a.write(1);
    a.write(2);
    b.write(3);
    expect(sink.count).toBe(3);
  });
});
