import type { PlanNode, Vertex } from '../api.ts';
import { formatCount, formatPercent } from '../format.ts';
import { layoutGraph, NODE_HEIGHT, NODE_WIDTH } from '../graph-layout.ts';

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The job graph: one box per vertex (name, parallelism, records/s, busy and back pressure,
 * coloured by the back pressure level) and one arrow per edge with its ship strategy.
 */
export function JobGraph(props: { nodes: readonly PlanNode[]; vertices: readonly Vertex[] }) {
  const layout = layoutGraph(props.nodes);
  const byId = new Map(props.vertices.map((v) => [v.id, v]));
  const path = (points: readonly { x: number; y: number }[]): string => points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ');
  return (
    <svg class="job-graph" width={layout.width} height={layout.height} viewBox={`0 0 ${layout.width} ${layout.height}`} data-testid="job-graph">
      <defs>
        <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill="#667" />
        </marker>
      </defs>
      {layout.edges.map((edge) => {
        const middle = edge.points[Math.floor(edge.points.length / 2)]!;
        return (
          <g class="edge" data-edge={`${edge.from}->${edge.to}`} key={`${edge.from}->${edge.to}`}>
            <path d={path(edge.points)} marker-end="url(#arrow)" />
            <text x={middle.x} y={middle.y - 6} text-anchor="middle">
              {edge.shipStrategy}
            </text>
          </g>
        );
      })}
      {layout.nodes.map((placed) => {
        const node = props.nodes.find((n) => n.id === placed.id)!;
        const vertex = byId.get(placed.id);
        const bp = vertex?.backpressure;
        const io = vertex?.metrics;
        return (
          <g class={`vertex bp-${bp?.level ?? 'ok'}`} data-vertex-id={placed.id} transform={`translate(${placed.x},${placed.y})`} key={placed.id}>
            <title>{node.description}</title>
            <rect width={NODE_WIDTH} height={NODE_HEIGHT} rx={6} />
            <text x={10} y={20} class="vertex-name">
              {truncate(node.description, 32)}
            </text>
            <text x={10} y={40}>
              Parallelism: {node.parallelism} · {vertex?.status ?? 'CREATED'}
            </text>
            <text x={10} y={60} data-testid="vertex-rates">
              in {formatCount(io?.['read-records-per-second'] ?? 0)}/s · out {formatCount(io?.['write-records-per-second'] ?? 0)}/s
            </text>
            <text x={10} y={80}>
              busy {formatPercent(bp?.['busy-ratio'] ?? 0)} · backpressure {formatPercent(bp?.ratio ?? 0)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
