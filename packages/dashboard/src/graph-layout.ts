import dagre from '@dagrejs/dagre';
import type { PlanNode } from './api.ts';

export const NODE_WIDTH = 240;
export const NODE_HEIGHT = 96;

export interface PlacedNode {
  readonly id: string;
  /** Top-left corner. */
  readonly x: number;
  readonly y: number;
}

export interface PlacedEdge {
  readonly from: string;
  readonly to: string;
  readonly shipStrategy: string;
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

export interface GraphLayout {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly PlacedNode[];
  readonly edges: readonly PlacedEdge[];
}

/** Lays the job graph out left to right with dagre (layered, as Flink's UI draws it). */
export function layoutGraph(nodes: readonly PlanNode[]): GraphLayout {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 40, ranksep: 80, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) g.setNode(node.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const node of nodes) for (const input of node.inputs) g.setEdge(input.id, node.id, { shipStrategy: input.ship_strategy });
  dagre.layout(g);
  const graph = g.graph();
  return {
    width: graph.width ?? 0,
    height: graph.height ?? 0,
    nodes: nodes.map((node) => {
      const placed = g.node(node.id);
      return { id: node.id, x: placed.x - NODE_WIDTH / 2, y: placed.y - NODE_HEIGHT / 2 };
    }),
    edges: g.edges().map((e) => {
      const edge = g.edge(e) as { points: { x: number; y: number }[]; shipStrategy: string };
      return { from: e.v, to: e.w, shipStrategy: edge.shipStrategy, points: edge.points };
    }),
  };
}
