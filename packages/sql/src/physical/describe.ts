import type { LogicalNode, WindowSpec } from '../logical/nodes.ts';
import { rexToString } from '../logical/rex.ts';

/** One node as Flink's EXPLAIN prints it: `Calc(select=[a, *(b, 2) AS x], where=[>(a, 1)])`. */
export function describeNode(node: LogicalNode): string {
  switch (node.kind) {
    case 'scan': {
      const watermark = node.table.watermark === undefined ? '' : `, watermark=[${node.table.watermark.text}]`;
      return `TableSourceScan(table=[[default_catalog, default_database, ${node.table.name}]], fields=[${node.fields.map((f) => f.name).join(', ')}]${watermark})`;
    }
    case 'calc': {
      const select = node.projects.map((p, i) => {
        const text = rexToString(p, node.input.fields);
        return text === node.fields[i]!.name ? text : `${text} AS ${node.fields[i]!.name}`;
      });
      const where = node.condition === undefined ? '' : `, where=[${rexToString(node.condition, node.input.fields)}]`;
      return `Calc(select=[${select.join(', ')}]${where})`;
    }
    case 'windowTvf':
      return `WindowTableFunction(window=[${windowToString(node.window, node.input.fields[node.timeIndex]!.name)}])`;
    case 'aggregate': {
      const keys = node.groupKeys.map((k) => node.input.fields[k]!.name);
      const aggs = node.aggs.map((a) => `${a.fn}(${a.arg === undefined ? '*' : node.input.fields[a.arg]!.name}) AS ${a.name}`);
      return `GroupAggregate(${keys.length > 0 ? `groupBy=[${keys.join(', ')}], ` : ''}select=[${[...keys, ...aggs].join(', ')}])`;
    }
    case 'windowAggregate': {
      const keys = node.keys.filter((k) => k.kind === 'field').map((k) => node.input.fields[k.index]!.name);
      const aggs = node.aggs.map((a) => `${a.fn}(${a.arg === undefined ? '*' : node.input.fields[a.arg]!.name}) AS ${a.name}`);
      return `WindowAggregate(${keys.length > 0 ? `groupBy=[${keys.join(', ')}], ` : ''}window=[${windowToString(node.window, 'rowtime')}], select=[${[...keys, ...aggs, 'start(w$) AS window_start', 'end(w$) AS window_end'].join(', ')}])`;
    }
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

export function windowToString(window: WindowSpec, timeColumn: string): string {
  if (window.fn === 'TUMBLE') return `TUMBLE(time_col=[${timeColumn}], size=[${seconds(window.size)}])`;
  if (window.fn === 'HOP') return `HOP(time_col=[${timeColumn}], size=[${seconds(window.size)}], slide=[${seconds(window.slide!)}])`;
  return `CUMULATE(time_col=[${timeColumn}], max_size=[${seconds(window.size)}], step=[${seconds(window.step!)}])`;
}
