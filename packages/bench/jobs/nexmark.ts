// A Nexmark query over the standard generator, for `pnpm bench nexmark`.
// args: <query (q0, q1, ...)> <events> <output dir>; parallelism from `weir run -p`.
// Every sink subtask writes the digest of the rows it got to <output dir>/digest-<subtask>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WatermarkStrategy, type ConnectorContext, type Sink, type SinkWriter, type StreamExecutionEnvironment } from '@weir/api';
import { DataGeneratorSource, eventTime, nexmarkEvent, RateLimiterStrategy, type NexmarkEvent as Event } from '@weir/connectors';
import { DigestBuilder, type Row } from '../src/nexmark/digest.ts';
import { QUERIES } from '../src/nexmark/queries.ts';

class DigestSink implements Sink<Row> {
  constructor(
    private readonly dir: string,
    private readonly finalKey: ((row: Row) => string | number) | undefined,
  ) {}

  createWriter(context: ConnectorContext): SinkWriter<Row> {
    const digest = new DigestBuilder();
    const finals = new Map<string | number, Row>();
    const { dir, finalKey } = this;
    return {
      write(row) {
        if (finalKey === undefined) digest.add(row);
        else finals.set(finalKey(row), row);
      },
      flush(endOfInput) {
        if (!endOfInput) return;
        for (const row of finals.values()) digest.add(row);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, `digest-${context.subtaskIndex}.json`), JSON.stringify(digest.digest()));
      },
      close() {},
    };
  }
}

export default function nexmark(env: StreamExecutionEnvironment, args: string[]) {
  const [name, events, output] = args;
  const query = QUERIES.find((q) => q.name === name);
  if (query === undefined) throw new Error(`no Nexmark query ${name}; there are ${QUERIES.map((q) => q.name).join(', ')}`);
  const source = env.fromSource(
    new DataGeneratorSource(nexmarkEvent, Number(events), RateLimiterStrategy.noOp()),
    WatermarkStrategy.forMonotonousTimestamps<Event>().withTimestampAssigner((e) => eventTime(e)),
    'nexmark',
  );
  query.build(source).sinkTo(new DigestSink(output!, query.finalKey));
  env.execute(`nexmark ${name}`);
}
