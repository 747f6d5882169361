import * as api from '@weir/api';
import { loadJobBundle } from '@weir/common';
import * as connectors from '@weir/connectors';
import { exampleJobs } from '@weir/examples';
import { describe, expect, it } from 'vitest';
import { bundleJob } from './bundle.ts';

/** Bundles an example as `weir run` would and runs its main against a real environment, as the JobManager does. */
async function buildExample(path: string, args: string[]): Promise<api.StreamGraph> {
  const bundle = await bundleJob(path);
  const main = loadJobBundle<api.StreamExecutionEnvironment>(bundle.code, bundle.entryName, { '@weir/api': api, '@weir/connectors': connectors });
  const env = new api.StreamExecutionEnvironment();
  await main(env, args);
  return env.getStreamGraph(bundle.entryName);
}

describe('example jobs', () => {
  it('word-count builds FileSource → split → keyed count → FileSink', async () => {
    const graph = await buildExample(exampleJobs.wordCount, ['/in.txt', '/out']);
    expect(graph.jobName).toBe('word-count');
    expect(graph.nodes.map((node) => [node.uid, node.spec.kind])).toEqual([
      ['lines', 'source'],
      ['split', 'flatMap'],
      ['count', 'keyedProcess'],
      ['sink', 'sink'],
    ]);
    expect(graph.nodes[2]!.inputs.map((edge) => edge.partitioner)).toEqual(['hash']);
  });

  it('generator-sum builds generator → key → keyed sum → format → FileSink', async () => {
    const graph = await buildExample(exampleJobs.generatorSum, ['100', '/out']);
    expect(graph.jobName).toBe('generator-sum');
    expect(graph.nodes.map((node) => [node.uid, node.spec.kind])).toEqual([
      ['numbers', 'source'],
      ['key', 'map'],
      ['sum', 'reduce'],
      ['format', 'map'],
      ['sink', 'sink'],
    ]);
  });

  it.each([
    [exampleJobs.wordCount, ['/in.txt'], 'word-count needs two arguments: <input file> <output dir>'],
    [exampleJobs.generatorSum, ['many', '/out'], 'generator-sum needs two arguments: <count> <output dir>'],
  ])('%s explains missing arguments', async (path, args, message) => {
    await expect(buildExample(path, args)).rejects.toThrow(message);
  });
});
