import type { OperatorSpec } from '@weir/api';
import type { ChainOperator } from './chain-operator.ts';
import type { OperatorContext } from './operator-context.ts';
import type { Output } from './output.ts';
import { CoProcessOperator, KeyedProcessOperator, ProcessOperator } from './process-operators.ts';
import { SinkOperator } from './sink-operator.ts';
import { CollectSinkOperator } from './collect-sink-operator.ts';
import { SourceOperator } from './source-operator.ts';
import { TimestampsAndWatermarksOperator } from './timestamps-and-watermarks-operator.ts';
import { FilterOperator, FlatMapOperator, MapOperator, ReduceOperator } from './transform-operators.ts';
import { WindowOperator } from './window/window-operator.ts';
import { BroadcastProcessOperator } from './broadcast/broadcast-process-operator.ts';
import { AsyncWaitOperator } from './async/async-wait-operator.ts';

/** Whether keyed state is available to the operator (it runs on a KeyedStream). */
export function isKeyed(spec: OperatorSpec): boolean {
  switch (spec.kind) {
    case 'map':
    case 'filter':
    case 'flatMap':
      return spec.key !== undefined;
    case 'keyedProcess':
    case 'reduce':
    case 'window':
      return true;
    case 'coProcess':
      return spec.keys !== undefined;
    case 'broadcastProcess':
      return spec.key !== undefined;
    default:
      return false;
  }
}

export function createOperator(spec: OperatorSpec, out: Output, context: OperatorContext): ChainOperator {
  switch (spec.kind) {
    case 'source':
      return new SourceOperator(spec.source, spec.watermarkStrategy, out, context);
    case 'map':
      return new MapOperator(spec.fn, out, context, spec.key);
    case 'filter':
      return new FilterOperator(spec.fn, out, context, spec.key);
    case 'flatMap':
      return new FlatMapOperator(spec.fn, out, context, spec.key);
    case 'process':
      return new ProcessOperator(spec.fn, out, context);
    case 'keyedProcess':
      return new KeyedProcessOperator(spec.fn, out, context, spec.key);
    case 'reduce':
      return new ReduceOperator(spec.fn, out, context, spec.key);
    case 'coProcess':
      return new CoProcessOperator(spec.fn, out, context, spec.keys);
    case 'timestampsAndWatermarks':
      return new TimestampsAndWatermarksOperator(spec.strategy, out, context);
    case 'window':
      return new WindowOperator(spec.window, out, context, spec.key);
    case 'broadcastProcess':
      return new BroadcastProcessOperator(spec.fn, out, context, spec.descriptors, spec.key);
    case 'asyncWait':
      return new AsyncWaitOperator(spec.fn, spec.settings, out, context);
    case 'sink':
      return new SinkOperator(spec.sink, context);
    case 'collect':
      return new CollectSinkOperator(context);
  }
}
