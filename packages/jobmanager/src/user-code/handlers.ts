import * as api from '@weir/api';
import { describeError, loadJobBundle, type JobMain } from '@weir/common';
import * as connectors from '@weir/connectors';
import * as sql from '@weir/sql';
import { planJob } from './plan-job.ts';
import { explainDenial } from './sandbox.ts';
import { InProcessEnumeratorHost, type HostEvent } from '../source/enumerator-host.ts';
import { splitSourceOf, splitSourceOperators } from '../source/source-coordinators.ts';
import type { EnumeratorRequest, WorkerRequests, WorkerSetup } from './protocol.ts';

/** One async function per request kind; the worker answers each request with its kind's handler. */
export type WorkerHandlers = { readonly [K in keyof WorkerRequests]: (payload: WorkerRequests[K]['request']) => Promise<WorkerRequests[K]['response']> };

/**
 * The handlers of a job's worker. The bundle is evaluated once, by the first request that
 * needs it, so an error in it is that request's answer.
 */
export function workerHandlers(setup: WorkerSetup, emit: (event: HostEvent) => void): WorkerHandlers {
  let main: JobMain<api.StreamExecutionEnvironment> | undefined;
  const loadMain = (): JobMain<api.StreamExecutionEnvironment> =>
    (main ??= loadJobBundle<api.StreamExecutionEnvironment>(setup.code, setup.entryName, { '@weir/api': api, '@weir/connectors': connectors, '@weir/sql': sql }, { systemExit: setup.systemExit }));
  let sources: Promise<SplitSources> | undefined;
  // The sources of the graph every task builds too (same args and defaults).
  const splitSources = (args: readonly string[], defaults: EnumeratorRequest['defaults']): Promise<SplitSources> =>
    (sources ??= api.buildStreamGraph(loadMain(), [...args], defaults).then((graph) => {
      const jobGraph = api.buildJobGraph(graph);
      return new Map(splitSourceOperators(graph, jobGraph).map(({ operatorId }) => [operatorId, splitSourceOf(graph, jobGraph, operatorId)]));
    }));
  let enumerators: InProcessEnumeratorHost | undefined;
  return {
    plan: (request) => planJob(loadMain, setup.entryName, request),
    enumerator: async ({ args, defaults, command }) => {
      if (enumerators === undefined) {
        const built = await splitSources(args, defaults);
        if (enumerators === undefined) {
          enumerators = new InProcessEnumeratorHost(built);
          enumerators.onEvent((event) => emit(event.type === 'failed' ? { ...event, message: explainDenial(event.message) } : event));
        }
      }
      enumerators.send(command);
    },
    jobEnded: async ({ args, defaults, status }) => {
      const all = [...(await splitSources(args, defaults)).entries()];
      const outcomes = await Promise.allSettled(all.map(([, source]) => source.jobEnded?.(status)));
      return outcomes.flatMap((outcome, i) => (outcome.status === 'rejected' ? [`the jobEnded of source ${all[i]![0]}: ${describeError(outcome.reason)}`] : []));
    },
  };
}

type SplitSources = ReadonlyMap<string, api.SplitSource<unknown, api.SourceSplit, unknown>>;
