import { Types, type StreamExecutionEnvironment } from '@weir/api';
import { describe, expect, it } from 'vitest';
import { CollectingSink, runJob } from '../testing/harness.ts';

class Point {
  constructor(
    public x: number,
    public y: number,
  ) {}
  norm(): number {
    return Math.abs(this.x) + Math.abs(this.y);
  }
}

/** Values that MessagePack alone would change, all in one record. */
function awkward(i: number) {
  const bare = Object.assign(Object.create(null) as object, { i });
  // eslint-disable-next-line no-sparse-arrays
  return { key: `k${i % 5}`, map: new Map([[{ i }, new Set([i])]]), bytes: Uint8Array.of(i), when: new Date(i), big: 2n ** 80n + BigInt(i), zero: -0, holes: [i, , i], bare };
}

function check(record: ReturnType<typeof awkward>, i: number): void {
  expect(record.map).toBeInstanceOf(Map);
  expect([...record.map.values()][0]).toEqual(new Set([i]));
  expect(record.bytes.constructor).toBe(Uint8Array);
  expect(record.when).toEqual(new Date(i));
  expect(record.big).toBe(2n ** 80n + BigInt(i));
  expect(Object.is(record.zero, -0)).toBe(true);
  expect(Object.keys(record.holes)).toEqual(['0', '2']);
  expect(Object.getPrototypeOf(record.bare)).toBe(null);
}

async function shuffle(taskManagers: number, objectReuse: boolean) {
  const sink = new CollectingSink<ReturnType<typeof awkward>>();
  const sent: object[] = [];
  const job = await runJob(
    (env: StreamExecutionEnvironment) => {
      env.setParallelism(2);
      if (objectReuse) env.getConfig().enableObjectReuse();
      env
        .fromCollection(Array.from({ length: 200 }, (_, i) => i))
        .map((i) => {
          const record = awkward(i);
          sent.push(record);
          return record;
        })
        .keyBy((r) => r.key)
        .filter(() => true)
        .sinkTo(sink);
    },
    { taskManagers },
  );
  await job.whenAllTerminal();
  return { job, sink, sent };
}

describe('records between tasks keep their types', () => {
  for (const [taskManagers, objectReuse] of [
    [1, false],
    [2, false],
    [1, true],
    [2, true],
  ] as const) {
    it(`keep Map, Set, Uint8Array, Date, big BigInt, -0, holes and prototype-less objects (${taskManagers} TaskManager(s), object reuse ${objectReuse ? 'on' : 'off'})`, async () => {
      const { job, sink, sent } = await shuffle(taskManagers, objectReuse);
      expect([...job.tasks.values()].flat().map((t) => t.state)).toEqual(['FINISHED', 'FINISHED', 'FINISHED', 'FINISHED']);
      const records = sink.values();
      expect(records).toHaveLength(200);
      for (const record of records) check(record, record.holes[0]!);
      const same = records.filter((r) => sent.includes(r)).length;
      // Under object reuse a consumer in the same TaskManager gets the emitted objects themselves (all but
      // what each of the 2 x 2 subpartitions flushed before its consumer subscribed); otherwise copies.
      if (!objectReuse) expect(same).toBe(0);
      else if (taskManagers === 1) expect(same).toBeGreaterThanOrEqual(196);
      else expect(same).toBeGreaterThan(0);
    });
  }

  it('refuses a class instance at the first record, failing the emitting operator with the field and what to do, on a local channel under object reuse too', async () => {
    for (const objectReuse of [false, true]) {
      const job = await runJob((env) => {
        env.setParallelism(2);
        if (objectReuse) env.getConfig().enableObjectReuse();
        env
          .fromCollection([1, 2, 3])
          .map((i) => ({ key: i, at: new Point(i, 0) }))
          .name('Locate')
          .keyBy((r) => r.key)
          .filter(() => true)
          .name('Near')
          .sinkTo(new CollectingSink());
      });
      await job.whenAllTerminal();
      const failures = [...job.changes.values()].map((c) => c.at(-1)!.failure).filter((f) => f?.code === 'RECORD_REFUSED');
      expect(failures.length).toBeGreaterThan(0);
      expect(failures[0]!.message.split('\n')[0]).toMatch(
        /^Locate \([12]\/2\) failed: cannot send a record to 'Near' unchanged: field 'at' is an instance of class Point; it would arrive as a plain object, without its class and methods; declare the stream's type so the class is registered and kept: \.returns\(Types\.POJO\(Point, \{ \.\.\.its fields \}\)\)/,
      );
    }
  });

  it('gives records declared as a POJO their class back, over a TaskManager boundary too', async () => {
    const sink = new CollectingSink<{ key: number; at: Point }>();
    const job = await runJob(
      (env) => {
        env.setParallelism(2);
        env
          .fromCollection([1, 2, 3, 4])
          .map((i) => ({ key: i, at: new Point(i, -i) }))
          .returns(Types.ROW({ key: Types.NUMBER, at: Types.POJO(Point, { x: Types.NUMBER, y: Types.NUMBER }) }))
          .keyBy((r) => r.key)
          .filter(() => true)
          .sinkTo(sink);
      },
      { taskManagers: 2 },
    );
    await job.whenAllTerminal();
    expect(job.connector.copiedBuffers).toBeGreaterThan(0);
    expect(sink.values().map((r) => r.at.norm()).sort()).toEqual([2, 4, 6, 8]);
  });
});
