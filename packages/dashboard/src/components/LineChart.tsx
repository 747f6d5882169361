import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  readonly label: string;
  readonly color: string;
  /** Which y axis: the left (0) or the right (1). */
  readonly axis?: 0 | 1;
  readonly format?: (value: number) => string;
}

/**
 * A time-series line chart (uPlot): `x` in milliseconds since the epoch, one `ys` array per
 * series. The chart is created once and fed new data on every render.
 */
export function LineChart(props: { title: string; x: readonly number[]; ys: readonly (readonly (number | null)[])[]; series: readonly ChartSeries[]; testId?: string }) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const data = [props.x.map((t) => t / 1_000), ...props.ys] as uPlot.AlignedData;

  useEffect(() => {
    const element = host.current!;
    const scales = props.series.some((s) => s.axis === 1) ? ['left', 'right'] : ['left'];
    const axisFormat = (axis: 0 | 1) => props.series.find((s) => (s.axis ?? 0) === axis)?.format;
    chart.current = new uPlot(
      {
        title: props.title,
        width: Math.max(320, element.clientWidth),
        height: 220,
        scales: Object.fromEntries(scales.map((s) => [s, { auto: true }])),
        series: [{}, ...props.series.map((s) => ({ label: s.label, stroke: s.color, width: 2, scale: scales[s.axis ?? 0], value: (_u: uPlot, v: number | null) => (v === null ? '–' : (s.format ?? String)(v)) }))],
        axes: [
          {},
          { scale: 'left', size: 70, values: (_u, ticks) => ticks.map((t) => (axisFormat(0) ?? String)(t)) },
          ...(scales.length > 1 ? [{ scale: 'right', side: 1, size: 70, grid: { show: false }, values: (_u: uPlot, ticks: number[]) => ticks.map((t) => (axisFormat(1) ?? String)(t)) }] : []),
        ],
      },
      data,
      element,
    );
    return () => chart.current?.destroy();
  }, [props.series.map((s) => s.label).join()]);

  useEffect(() => {
    chart.current?.setData(data);
  });

  return <div class="chart" ref={host} data-testid={props.testId} />;
}
