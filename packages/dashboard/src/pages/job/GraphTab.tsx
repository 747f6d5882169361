import type { JobDetails, Vertex } from '../../api.ts';
import { JobGraph } from '../../components/JobGraph.tsx';
import { LineChart } from '../../components/LineChart.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { Table, type Column } from '../../components/Table.tsx';
import { formatBytes, formatCount, formatPercent, formatTime } from '../../format.ts';
import type { ThroughputHistory } from './throughput.ts';

const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2'];

const VERTEX_COLUMNS: readonly Column<Vertex>[] = [
  { title: 'Vertex', render: (v) => v.name },
  { title: 'Status', render: (v) => <StatusBadge status={v.status} /> },
  { title: 'Parallelism', render: (v) => v.parallelism, align: 'right' },
  { title: 'Records received', render: (v) => formatCount(v.metrics['read-records']), align: 'right' },
  { title: 'Records sent', render: (v) => formatCount(v.metrics['write-records']), align: 'right' },
  { title: 'Bytes received', render: (v) => formatBytes(v.metrics['read-bytes']), align: 'right' },
  { title: 'Bytes sent', render: (v) => formatBytes(v.metrics['write-bytes']), align: 'right' },
  { title: 'Busy', render: (v) => formatPercent(v.backpressure['busy-ratio']), align: 'right' },
  { title: 'Backpressure', render: (v) => <span class={`bp-label bp-${v.backpressure.level}`}>{formatPercent(v.backpressure.ratio)}</span>, align: 'right' },
  { title: 'Low watermark', render: (v) => (v.watermark === null ? 'No watermark' : formatTime(v.watermark)), align: 'right' },
];

/** The job graph, records/s over time per vertex, and the vertices' figures. */
export function GraphTab(props: { job: JobDetails; history: ThroughputHistory }) {
  const { job, history } = props;
  const vertices = job.vertices;
  return (
    <div>
      <div class="graph-box">
        <JobGraph nodes={job.plan.nodes} vertices={vertices} />
      </div>
      <LineChart
        title="Records per second (sent; received for sinks)"
        testId="throughput-chart"
        x={history.times}
        ys={vertices.map((v) => history.rates.get(v.id) ?? [])}
        series={vertices.map((v, i) => ({ label: v.name, color: COLORS[i % COLORS.length]!, format: formatCount }))}
      />
      <Table columns={VERTEX_COLUMNS} rows={vertices} rowKey={(v) => v.id} testId="vertices" />
    </div>
  );
}
