import { describe, expect, it } from 'vitest';
import type { SplitSource } from '../connector/splits.ts';
import { Boundedness, type Sink } from '../connector/types.ts';
import { StreamExecutionEnvironment } from '../environment/stream-execution-environment.ts';
import { WatermarkStrategy } from '../time/watermark-strategy.ts';
import { exclusiveResources } from './exclusive-resources.ts';

function claiming(name: string): Sink<number> {
  return {
    createWriter: () => ({ write() {}, flush() {}, close() {} }),
    exclusiveResources: () => [{ kind: 'test.prefix', scope: 'here', name, description: `test prefix '${name}'` }],
  };
}

describe('exclusiveResources', () => {
  it("collects what the job's sinks claim", () => {
    const env = new StreamExecutionEnvironment();
    const numbers = env.fromElements(1, 2, 3);
    numbers.sinkTo(claiming('a'));
    numbers.sinkTo(claiming('b'));
    expect(exclusiveResources(env.getStreamGraph('job')).map((r) => r.name)).toEqual(['a', 'b']);
  });

  it('refuses two sinks of one job claiming the same thing, naming both', () => {
    const env = new StreamExecutionEnvironment();
    const numbers = env.fromElements(1, 2, 3);
    numbers.sinkTo(claiming('a')).name('first');
    numbers.sinkTo(claiming('a')).name('second');
    expect(() => exclusiveResources(env.getStreamGraph('job'))).toThrow(/sinks 'first' and 'second' both use test prefix 'a'/);
  });

  it('refuses a claim that is not short strings', () => {
    const env = new StreamExecutionEnvironment();
    env.fromElements(1).sinkTo(claiming('x'.repeat(2000))).name('huge');
    expect(() => exclusiveResources(env.getStreamGraph('job'))).toThrow(/sink 'huge' claims an exclusive resource whose name is not a string of at most 1024 characters/);
  });

  it("collects what the job's split sources claim, with what each leaves behind", () => {
    const env = new StreamExecutionEnvironment();
    const slot = { kind: 'test.slot', scope: 'here', name: 's', description: "test slot 's'", leftBehind: "drop it: DROP 's'" };
    const source: SplitSource<number, never, never> = {
      boundedness: Boundedness.BOUNDED,
      createReader: () => {
        throw new Error('not read here');
      },
      createEnumerator: () => {
        throw new Error('not enumerated here');
      },
      restoreEnumerator: () => {
        throw new Error('not enumerated here');
      },
      exclusiveResources: () => [slot],
    };
    const stream = env.fromSource(source, WatermarkStrategy.noWatermarks(), 'changes');
    stream.sinkTo(claiming('a'));
    expect(exclusiveResources(env.getStreamGraph('job'))).toEqual([slot, { kind: 'test.prefix', scope: 'here', name: 'a', description: "test prefix 'a'" }]);
    env.fromSource(source, WatermarkStrategy.noWatermarks(), 'again').sinkTo(claiming('b'));
    expect(() => exclusiveResources(env.getStreamGraph('job'))).toThrow(/'changes' and 'again' both use test slot 's', which one of them must use alone/);
  });
});
