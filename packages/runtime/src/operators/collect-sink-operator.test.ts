import type { ReaderEvent } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { OperatorHarness } from '../testing/operator-harness.ts';
import { COLLECT_BATCH_ROWS, COLLECT_FLUSH_INTERVAL_MS, type CollectSinkOperator } from './collect-sink-operator.ts';

function setup() {
  const sent: unknown[][] = [];
  const harness = new OperatorHarness({ kind: 'collect' }, { keyed: false, onOperatorEvent: (event: ReaderEvent) => void (event.kind === 'collect-rows' && sent.push([...event.rows])) });
  const sink = harness.operator as CollectSinkOperator;
  return { harness, sink, sent };
}

describe('CollectSinkOperator', () => {
  it('registers on open, sends nothing without credit, and a partial batch on its flush timer once credited', async () => {
    const { harness, sink, sent } = setup();
    await harness.open();
    expect(sent).toEqual([[]]);
    harness.element('a');
    harness.element('b');
    harness.advance(COLLECT_FLUSH_INTERVAL_MS);
    expect(sent).toHaveLength(1);
    sink.handleOperatorEvent({ kind: 'collect-credit', credits: 1 });
    harness.advance(COLLECT_FLUSH_INTERVAL_MS);
    expect(sent).toEqual([[], ['a']]);
    sink.handleOperatorEvent({ kind: 'collect-credit', credits: 10 });
    harness.advance(COLLECT_FLUSH_INTERVAL_MS);
    expect(sent).toEqual([[], ['a'], ['b']]);
  });

  it('parks the task when a full batch has no credit, and goes on once credit comes (back-pressure from the JobManager)', async () => {
    const { harness, sink, sent } = setup();
    await harness.open();
    for (let i = 0; i < COLLECT_BATCH_ROWS; i++) harness.element(i);
    expect(harness.work.count).toBe(1);
    sink.handleOperatorEvent({ kind: 'collect-credit', credits: 10 });
    await harness.settled();
    expect(harness.work.count).toBe(0);
    expect(sent[1]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('finishes only once every row went out', async () => {
    const { harness, sink, sent } = setup();
    await harness.open();
    harness.element('x');
    let finished = false;
    const finishing = harness.operator.finish().then(() => (finished = true));
    await Promise.resolve();
    expect(finished).toBe(false);
    sink.handleOperatorEvent({ kind: 'collect-credit', credits: 5 });
    await finishing;
    expect(sent.flat()).toEqual(['x']);
  });
});
