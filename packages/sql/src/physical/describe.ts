import type { LogicalNode, RankWindow, WindowSpec } from '../logical/nodes.ts';
import { rexToString } from '../logical/rex.ts';

/** One node as Flink's EXPLAIN prints it: `Calc(select=[a, *(b, 2) AS x], where=[>(a, 1)])`. */
export function describeNode(node: LogicalNode): string {
  switch (node.kind) {
    case 'scan': {
      const watermark = node.table.watermark === undefined ? '' : `, watermark=[${node.table.watermark.text}]`;
      // Flink prints what a source took inside its table name: `project=[..]`, `filter=[..]`.
      const p = node.pushdown;
      const project = p === undefined || p.columns.length === node.fields.length ? '' : `, project=[${p.columns.map((i) => node.fields[i]!.name).join(', ')}]`;
      const filter = p?.filter === undefined ? '' : `, filter=[${rexToString(p.filter, node.fields)}]`;
      return `TableSourceScan(table=[[default_catalog, default_database, ${node.table.name}${project}${filter}]], fields=[${node.fields.map((f) => f.name).join(', ')}]${watermark})`;
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
      const aggs = node.aggs.map((a) => `${a.fn}(${a.distinct ? 'DISTINCT ' : ''}${a.arg === undefined ? '*' : node.input.fields[a.arg]!.name}) AS ${a.name}`);
      return `GroupAggregate(${keys.length > 0 ? `groupBy=[${keys.join(', ')}], ` : ''}select=[${[...keys, ...aggs].join(', ')}])`;
    }
    case 'union':
      return `Union(all=[true], union=[${node.fields.map((f) => f.name).join(', ')}])`;
    case 'join': {
      const type = `${node.joinType[0]}${node.joinType.slice(1).toLowerCase()}${node.joinType === 'INNER' ? '' : 'Outer'}Join`;
      const both = node.fields;
      const where = `where=[${rexToString(node.condition, both)}]`;
      const select = `select=[${both.map((f) => f.name).join(', ')}]`;
      if (node.interval !== undefined) {
        const b = node.interval;
        return `IntervalJoin(joinType=[${type}], windowBounds=[isRowTime=true, leftLowerBound=${b.lower}, leftUpperBound=${b.upper}, leftTimeIndex=${b.leftTime}, rightTimeIndex=${b.rightTime}], ${where}, ${select})`;
      }
      if (node.window !== undefined) {
        const side = (w: RankWindow, input: LogicalNode) =>
          windowToString(w.window, 'rowtime').replace('(time_col=[rowtime]', `(win_start=[${input.fields[w.start]!.name}], win_end=[${input.fields[w.end]!.name}]`);
        return `WindowJoin(leftWindow=[${side(node.window.left, node.left)}], rightWindow=[${side(node.window.right, node.right)}], joinType=[${type}], ${where}, ${select})`;
      }
      return `Join(joinType=[${type}], ${where}, ${select}, leftInputSpec=[NoUniqueKey], rightInputSpec=[NoUniqueKey])`;
    }
    case 'lookupJoin': {
      // Flink's `lookup=[key=$f5]` names a projected field; Weir looks the expression up itself, so it prints the expression.
      const lookup = node.rightKeys.map((k, i) => `${node.table.columns[k]!.name}=${rexToString(node.leftKeys[i]!, node.input.fields)}`).join(', ');
      const where = node.residual === undefined ? '' : `, where=[${rexToString(node.residual, node.fields)}]`;
      const type = node.joinType === 'INNER' ? 'InnerJoin' : 'LeftOuterJoin';
      return `LookupJoin(table=[default_catalog.default_database.${node.table.name}], joinType=[${type}], lookup=[${lookup}]${where}, select=[${node.fields.map((f) => f.name).join(', ')}])`;
    }
    case 'rank': {
      const names = node.input.fields.map((f) => f.name);
      const partition = node.partitionKeys.map((k) => names[k]).join(', ');
      const order = node.orderKeys.map((k) => `${names[k.index]} ${k.desc ? 'DESC' : 'ASC'}`).join(', ');
      const select = [...names, node.fields[node.fields.length - 1]!.name].join(', ');
      if (node.window !== undefined) {
        const w = node.window;
        const others = node.partitionKeys.filter((k) => k !== w.start && k !== w.end).map((k) => names[k]).join(', ');
        const window = windowToString(w.window, 'rowtime').replace('(time_col=[rowtime]', `(win_start=[${names[w.start]}], win_end=[${names[w.end]}]`);
        return `WindowRank(window=[${window}], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=${node.limit ?? 'unbounded'}], partitionBy=[${others}], orderBy=[${order}], select=[${select}])`;
      }
      return `Rank(strategy=[AppendFastStrategy], rankType=[ROW_NUMBER], rankRange=[rankStart=1, rankEnd=${node.limit ?? 'unbounded'}], partitionBy=[${partition}], orderBy=[${order}], select=[${select}])`;
    }
    case 'overAggregate': {
      const names = node.input.fields.map((f) => f.name);
      const preceding = node.preceding === undefined ? 'UNBOUNDED' : String(node.preceding);
      // 'RANG', as Flink's OverAggregate prints a RANGE frame.
      const window = `${node.rows ? 'ROWS' : 'RANG'} BETWEEN ${preceding} PRECEDING AND CURRENT ROW`;
      const aggs = node.aggs.map((a) => `${a.fn}(${a.arg === undefined ? '*' : names[a.arg]}) AS ${a.name}`);
      return `OverAggregate(partitionBy=[${node.partitionKeys.map((k) => names[k]).join(', ')}], orderBy=[${names[node.timeIndex]} ASC], window=[${window}], select=[${[...names, ...aggs].join(', ')}])`;
    }
    case 'windowAggregate': {
      const keys = node.keys.filter((k) => k.kind === 'field').map((k) => node.input.fields[k.index]!.name);
      const aggs = node.aggs.map((a) => `${a.fn}(${a.arg === undefined ? '*' : node.input.fields[a.arg]!.name}) AS ${a.name}`);
      return `WindowAggregate(${keys.length > 0 ? `groupBy=[${keys.join(', ')}], ` : ''}window=[${windowToString(node.window, node.window.proctime === true ? 'proctime' : 'rowtime')}], select=[${[...keys, ...aggs, 'start(w$) AS window_start', 'end(w$) AS window_end'].join(', ')}])`;
    }
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

export function windowToString(window: WindowSpec, timeColumn: string): string {
  if (window.fn === 'TUMBLE') return `TUMBLE(time_col=[${timeColumn}], size=[${seconds(window.size)}])`;
  if (window.fn === 'SESSION') return `SessionGroupWindow(time_col=[${timeColumn}], gap=[${seconds(window.gap!)}])`;
  if (window.fn === 'HOP') return `HOP(time_col=[${timeColumn}], size=[${seconds(window.size)}], slide=[${seconds(window.slide!)}])`;
  return `CUMULATE(time_col=[${timeColumn}], max_size=[${seconds(window.size)}], step=[${seconds(window.step!)}])`;
}
