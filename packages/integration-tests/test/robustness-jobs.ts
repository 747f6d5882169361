/** Jobs that misbehave, for the robustness tests: each names what it does wrong. */

/** A main that never returns. */
export const LOOPING_MAIN = `
import { StreamExecutionEnvironment } from '@weir/api';
export default function looping(env: StreamExecutionEnvironment) {
  for (;;) {}
}
`;

/** A main that builds ever more data until its heap is gone. */
export const HUNGRY_MAIN = `
import { StreamExecutionEnvironment } from '@weir/api';
export default function hungry(env: StreamExecutionEnvironment) {
  const keep: number[][] = [];
  for (;;) keep.push(new Array(100_000).fill(keep.length));
}
`;

/** A map that calls process.exit(3) at record 7: in the TaskManager. */
export const EXITING_MAP = `
import { StreamExecutionEnvironment, Types } from '@weir/api';
import { DataGeneratorSource, RateLimiterStrategy, DiscardingSink } from '@weir/connectors';

export default function exitingMap(env: StreamExecutionEnvironment) {
  env.fromSource(new DataGeneratorSource((i: number) => i, 1000, RateLimiterStrategy.noOp(), Types.NUMBER), 'numbers').uid('numbers')
    .map((n: number) => { if (n === 7) process.exit(3); return n; }).uid('exiting').name('exiting map')
    .sinkTo(new DiscardingSink<number>()).uid('sink');
}
`;
