import { describe, expect, it } from 'vitest';
import { layoutGraph, NODE_WIDTH } from './graph-layout.ts';

describe('layoutGraph', () => {
  it('places every vertex left of the vertices it feeds, with one edge per input', () => {
    const layout = layoutGraph([
      { id: 'src', description: 'events', parallelism: 2, inputs: [] },
      { id: 'sum', description: 'running-sum -> sink', parallelism: 2, inputs: [{ num: 0, id: 'src', ship_strategy: 'HASH' }] },
    ]);
    const x = Object.fromEntries(layout.nodes.map((n) => [n.id, n.x]));
    expect(x.sum! - x.src!).toBeGreaterThanOrEqual(NODE_WIDTH);
    expect(layout.edges).toHaveLength(1);
    expect(layout.edges[0]).toMatchObject({ from: 'src', to: 'sum', shipStrategy: 'HASH' });
    expect(layout.edges[0]!.points.length).toBeGreaterThanOrEqual(2);
    expect(layout.width).toBeGreaterThan(2 * NODE_WIDTH);
  });
});
