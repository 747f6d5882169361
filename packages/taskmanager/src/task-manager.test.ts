import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as api from '@weir/api';
import * as connectors from '@weir/connectors';
import { defaultConfig, loadJobBundle, type WeirConfig } from '@weir/common';
import type { DeployTask } from '@weir/rpc';
import { startTaskManager } from './index.ts';
import type { TaskManagerHandle } from './task-manager.ts';
import { FakeJobManager, type FakeControlStream } from './testing/fake-jobmanager.ts';
import { silentLogger } from '@weir/common/testing';

/** Where the job's sinks put their records: the bundle runs in this process. */
const OUTPUT_KEY = '__weirTaskManagerTestOutput';

/** A job bundle as `weir run` would ship it: CommonJS, @weir/api external. */
const BUNDLE = `
const api = require('@weir/api');
exports.default = function keyedJob(env, args) {
  env.setParallelism(2);
  const count = Number(args[0]);
  const items = Array.from({ length: count }, (_, i) => i);
  env.fromCollection(items).uid('numbers')
     .keyBy((n) => n % 7)
     .map((n) => n * 10).uid('times-ten')
     .sinkTo({
       createWriter: (ctx) => ({
         write: (record) => { globalThis.${OUTPUT_KEY}.push([ctx.subtaskIndex, record]); },
         flush: () => {},
         close: () => {},
       }),
     }).uid('collect');
};
`;
const BUNDLE_BYTES = Buffer.from(BUNDLE, 'utf8');
const BUNDLE_HASH = createHash('sha256').update(BUNDLE_BYTES).digest('hex');
const DEFAULTS = { parallelism: 1, maxParallelism: -1, bufferTimeoutMs: 5 };

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  delete (globalThis as Record<string, unknown>)[OUTPUT_KEY];
});

function configFor(jobManagerPort: number): WeirConfig {
  return {
    ...defaultConfig(),
    'jobmanager.rpc.address': '127.0.0.1',
    'jobmanager.rpc.port': jobManagerPort,
    'taskmanager.host': '127.0.0.1',
    'taskmanager.bind-host': '127.0.0.1',
  };
}

async function startTaskManagerOn(jobManager: FakeJobManager): Promise<{ handle: TaskManagerHandle; stream: FakeControlStream }> {
  const handle = await startTaskManager(configFor(jobManager.port), { logger: silentLogger() });
  cleanups.push(() => handle.close());
  await vi.waitFor(() =>
    expect(jobManager.streams.find((s) => s.registers[0]?.taskManagerId === handle.taskManagerId)).toBeDefined(),
  );
  const stream = jobManager.streams.find((s) => s.registers[0]?.taskManagerId === handle.taskManagerId)!;
  stream.send({ registered: { taskManagerId: handle.taskManagerId, heartbeatIntervalMs: 1_000, heartbeatTimeoutMs: 60_000 } });
  return { handle, stream };
}

/** The job graph the JobManager would have built from the bundle; with `jobManager`, it also runs the job's enumerators. */
async function jobGraphOf(args: string[], jobManager?: FakeJobManager): Promise<api.JobGraph> {
  const main = loadJobBundle<api.StreamExecutionEnvironment>(BUNDLE, 'keyed-job.js', { '@weir/api': api, '@weir/connectors': connectors });
  const streamGraph = await api.buildStreamGraph(main, args, DEFAULTS);
  const jobGraph = api.buildJobGraph(streamGraph);
  jobManager?.coordinate(streamGraph, jobGraph);
  return jobGraph;
}

function deploy(vertex: api.JobVertex, subtask: number, args: string[], inputs: DeployTask['inputs'] = []): DeployTask {
  return {
    task: { jobId: 'job-e2e', attempt: 0, vertexId: vertex.id, subtaskIndex: subtask },
    jobName: 'keyedJob',
    bundleHash: BUNDLE_HASH,
    entryName: 'keyed-job.js',
    args,
    defaults: DEFAULTS,
    parallelism: vertex.parallelism,
    inputs,
  };
}

function statesOf(stream: FakeControlStream, vertexId: string, subtask: number): string[] {
  return stream.statuses
    .filter((status) => status.task?.vertexId === vertexId && status.task.subtaskIndex === subtask)
    .map((status) => status.state);
}

describe('startTaskManager', () => {
  it('runs a job deployed over two TaskManagers, reading the other one through DataExchange, to FINISHED', async () => {
    const output: [number, number][] = [];
    (globalThis as Record<string, unknown>)[OUTPUT_KEY] = output;
    const jobManager = await new FakeJobManager().start();
    cleanups.push(() => jobManager.stop());
    jobManager.bundles.set(BUNDLE_HASH, BUNDLE_BYTES);
    const producerSide = await startTaskManagerOn(jobManager);
    const consumerSide = await startTaskManagerOn(jobManager);

    const args = ['500'];
    const graph = await jobGraphOf(args, jobManager);
    expect(graph.vertices).toHaveLength(2);
    const [sources, sinks] = graph.vertices as [api.JobVertex, api.JobVertex];
    const producers = [0, 1].map((subtaskIndex) => ({
      subtaskIndex,
      taskManagerId: producerSide.handle.taskManagerId,
      dataAddress: producerSide.handle.dataAddress,
    }));
    for (const subtask of [0, 1]) {
      consumerSide.stream.send({ deploy: deploy(sinks, subtask, args, [{ sourceVertexId: sources.id, producers }]) });
    }
    for (const subtask of [0, 1]) producerSide.stream.send({ deploy: deploy(sources, subtask, args) });

    await vi.waitFor(
      () => {
        for (const subtask of [0, 1]) {
          expect(statesOf(producerSide.stream, sources.id, subtask).at(-1)).toBe('FINISHED');
          expect(statesOf(consumerSide.stream, sinks.id, subtask).at(-1)).toBe('FINISHED');
        }
      },
      { timeout: 15_000, interval: 50 },
    );
    for (const subtask of [0, 1]) {
      expect(statesOf(producerSide.stream, sources.id, subtask)).toEqual(['DEPLOYING', 'INITIALIZING', 'RUNNING', 'FINISHED']);
      expect(statesOf(consumerSide.stream, sinks.id, subtask)).toEqual(['DEPLOYING', 'INITIALIZING', 'RUNNING', 'FINISHED']);
    }
    expect(output.map(([, record]) => record).sort((a, b) => a - b)).toEqual(Array.from({ length: 500 }, (_, i) => i * 10));
    // keyBy sent every key to one subtask only.
    const subtaskOfKey = new Map<number, number>();
    for (const [subtask, record] of output) {
      const key = (record / 10) % 7;
      expect(subtaskOfKey.get(key) ?? subtask).toBe(subtask);
      subtaskOfKey.set(key, subtask);
    }
    expect(jobManager.bundleRequests).toEqual([BUNDLE_HASH, BUNDLE_HASH]);
  });

  it('reports FAILED with the reason when the bundle hash is unknown', async () => {
    const jobManager = await new FakeJobManager().start();
    cleanups.push(() => jobManager.stop());
    const { stream } = await startTaskManagerOn(jobManager);
    const graph = await jobGraphOf(['10']);
    const missing = 'cd'.repeat(32);
    stream.send({ deploy: { ...deploy(graph.vertices[0]!, 0, ['10']), bundleHash: missing } });

    await vi.waitFor(() => expect(stream.statuses).toHaveLength(2));
    expect(stream.statuses.map((status) => [status.state, status.failureCode])).toEqual([
      ['DEPLOYING', ''],
      ['FAILED', 'BUNDLE_FETCH_FAILED'],
    ]);
    expect(stream.statuses[1]!.failureCause).toContain(`cannot fetch job bundle ${missing} from the JobManager: no job bundle with SHA-256 ${missing} [BUNDLE_NOT_FOUND]`);
  });

  it('reports FAILED when the bundle has no default export', async () => {
    const jobManager = await new FakeJobManager().start();
    cleanups.push(() => jobManager.stop());
    const bad = Buffer.from('exports.job = function () {};');
    const hash = createHash('sha256').update(bad).digest('hex');
    jobManager.bundles.set(hash, bad);
    const { stream } = await startTaskManagerOn(jobManager);
    const graph = await jobGraphOf(['10']);
    stream.send({ deploy: { ...deploy(graph.vertices[0]!, 0, ['10']), bundleHash: hash } });

    await vi.waitFor(() => expect(stream.statuses).toHaveLength(2));
    expect(stream.statuses[1]!.state).toBe('FAILED');
    expect(stream.statuses[1]!.failureCode).toBe('INVALID_JOB');
    expect(stream.statuses[1]!.failureCause).toContain('job keyed-job.js has no default export function');
  });
});
