import {
  CountTrigger,
  EventTimeSessionWindows,
  KeyedCoProcessFunction,
  KeyedProcessFunction,
  OutputTag,
  ProcessAllWindowFunction,
  ProcessFunction,
  ProcessWindowFunction,
  TumblingEventTimeWindows,
  Types,
  ValueStateDescriptor,
  Watermark,
  WatermarkStrategy,
  type AggregateFunction,
  type Collector,
  type KeyedProcessContext,
  type OnTimerContext,
  type ProcessAllWindowContext,
  type ProcessContext,
  type ProcessWindowContext,
  type StreamExecutionEnvironment,
  type TimeWindow,
  type ValueState,
} from '@weir/api';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@weir/common/testing';
import { listSource, SourceControl } from '../testing/checkpoint-fixtures.ts';
import { CollectingSink, runJob, waitUntil } from '../testing/harness.ts';

type Event = { key: string; ts: number };

async function run<T>(build: (env: StreamExecutionEnvironment, sink: CollectingSink<T>) => void): Promise<T[]> {
  const sink = new CollectingSink<T>();
  const job = await runJob((env) => build(env, sink), { taskManagers: 2 });
  await job.whenAllTerminal();
  for (const tasks of job.tasks.values()) for (const task of tasks) expect(task.state, `${task.state}`).toBe('FINISHED');
  return sink.values();
}

/** A watermark right behind every event: lateness follows from the order of the records alone. */
function punctuated<T extends { ts: number }>(): WatermarkStrategy<T> {
  return WatermarkStrategy.forGenerator<T>(() => ({
    onEvent: (_event, timestamp, output) => output.emitWatermark(new Watermark(timestamp - 1)),
    onPeriodicEmit: () => {},
  })).withTimestampAssigner((e) => e.ts);
}

const count: AggregateFunction<Event, number, number> = {
  createAccumulator: () => 0,
  add: (_e, acc) => acc + 1,
  getResult: (acc) => acc,
  merge: (a, b) => a + b,
};

class Describe extends ProcessWindowFunction<number, string, string, TimeWindow> {
  process(key: string, ctx: ProcessWindowContext<TimeWindow>, counts: Iterable<number>, out: Collector<string>): void {
    const window = ctx.window();
    out.collect(`${key} [${window.start},${window.end}) ${[...counts].join(',')}`);
  }
}

describe('event time through a job', () => {
  it('fires every tumbling window of a bounded, out-of-order input once, with the final watermark, after a keyBy across tasks', async () => {
    const events: Event[] = [];
    for (let i = 0; i < 400; i++) events.push({ key: `k${i % 7}`, ts: (i * 37) % 1000 });
    const out = await run<string>((env, sink) => {
      env.setParallelism(2);
      env
        .fromSource(
          collectionSource(events),
          WatermarkStrategy.forBoundedOutOfOrderness<Event>(1000).withTimestampAssigner((e) => e.ts),
          'events',
        )
        .keyBy((e) => e.key)
        .window(TumblingEventTimeWindows.of(100))
        .aggregate(count, new Describe())
        .sinkTo(sink);
    });
    const expected = new Map<string, number>();
    for (const e of events) {
      const start = Math.floor(e.ts / 100) * 100;
      const id = `${e.key} [${start},${start + 100})`;
      expected.set(id, (expected.get(id) ?? 0) + 1);
    }
    expect(out.sort()).toEqual([...expected].map(([id, n]) => `${id} ${n}`).sort());
  });

  it('sends elements too late for their window to the late-data side output, and fires again within the allowed lateness', async () => {
    const late = new OutputTag<Event>('late');
    const input: Event[] = [
      { key: 'a', ts: 5 },
      { key: 'a', ts: 15 }, // watermark 14: [0,10) fires with 1
      { key: 'a', ts: 7 }, // within lateness 10: [0,10) fires again with 2
      { key: 'a', ts: 30 }, // watermark 29: [10,20) fires, [0,10) is cleaned up (9 + 10 < 29)
      { key: 'a', ts: 8 }, // too late: side output
    ];
    const out = await run<string>((env, sink) => {
      const windowed = env
        .fromSource(collectionSource(input), punctuated<Event>(), 'events')
        .keyBy((e) => e.key)
        .window(TumblingEventTimeWindows.of(10))
        .allowedLateness(10)
        .sideOutputLateData(late)
        .aggregate(count, new Describe());
      windowed.sinkTo(sink);
      windowed.getSideOutput(late).map((e) => `late ${e.key}@${e.ts}`).sinkTo(sink);
    });
    expect(out.sort()).toEqual(['a [0,10) 1', 'a [0,10) 2', 'a [10,20) 1', 'a [30,40) 1', 'late a@8'].sort());
  });

  it('merges session windows, fires each session once with all its elements', async () => {
    const input: Event[] = [
      { key: 'a', ts: 0 },
      { key: 'a', ts: 40 },
      { key: 'b', ts: 5 },
      { key: 'a', ts: 20 }, // [20, 45) bridges [0, 25) and [40, 65): one session [0, 65)
      { key: 'a', ts: 100 },
      { key: 'b', ts: 200 },
    ];
    const out = await run<string>((env, sink) => {
      env
        .fromSource(collectionSource(input), WatermarkStrategy.forMonotonousTimestamps<Event>().withTimestampAssigner((e) => e.ts), 'events')
        .keyBy((e) => e.key)
        .window(EventTimeSessionWindows.withGap(25))
        .process(
          new (class extends ProcessWindowFunction<Event, string, string, TimeWindow> {
            process(key: string, ctx: ProcessWindowContext<TimeWindow>, elements: Iterable<Event>, out: Collector<string>): void {
              out.collect(`${key} [${ctx.window().start},${ctx.window().end}) ${[...elements].map((e) => e.ts).sort((x, y) => x - y).join(' ')}`);
            }
          })(),
        )
        .sinkTo(sink);
    });
    expect(out.sort()).toEqual(['a [0,65) 0 20 40', 'a [100,125) 100', 'b [5,30) 5', 'b [200,225) 200'].sort());
  });

  it('counts with countWindow(n): fires and purges every n elements of a key', async () => {
    const out = await run<number>((env, sink) => {
      env
        .fromCollection(Array.from({ length: 10 }, (_, i) => i))
        .keyBy((i) => i % 2)
        .countWindow(2)
        .reduce((a, b) => a + b)
        .sinkTo(sink);
    });
    // Key 0: 0+2, 4+6 and 8 left; key 1: 1+3, 5+7 and 9 left. What is left never fires.
    expect(out.sort((a, b) => a - b)).toEqual([2, 4, 10, 12]);
  });

  it('fires a KeyedProcessFunction\'s event-time timers with the key and keyed state of the timer, and emits side outputs', async () => {
    const big = new OutputTag<string>('big');
    class SumUntil extends KeyedProcessFunction<string, Event, string> {
      sum!: ValueState<number>;
      override open(): void {
        this.sum = this.getRuntimeContext().getState(new ValueStateDescriptor('sum', Types.NUMBER));
      }
      processElement(e: Event, ctx: KeyedProcessContext<string>, out: Collector<string>): void {
        this.sum.update((this.sum.value() ?? 0) + e.ts);
        ctx.timerService().registerEventTimeTimer(100);
        if (e.ts > 50) ctx.output(big, `${ctx.getCurrentKey()}:${e.ts}@${ctx.timestamp()}`);
        void out;
      }
      override onTimer(timestamp: number, ctx: OnTimerContext<string>, out: Collector<string>): void {
        out.collect(`${ctx.getCurrentKey()} ${ctx.timeDomain()} ${timestamp} sum=${this.sum.value()} ts=${ctx.timestamp()}`);
      }
    }
    const input: Event[] = [
      { key: 'x', ts: 10 },
      { key: 'y', ts: 60 },
      { key: 'x', ts: 20 },
    ];
    const out = await run<string>((env, sink) => {
      const processed = env
        .fromSource(collectionSource(input), WatermarkStrategy.forMonotonousTimestamps<Event>().withTimestampAssigner((e) => e.ts), 'events')
        .keyBy((e) => e.key)
        .process(new SumUntil());
      processed.sinkTo(sink);
      processed.getSideOutput(big).sinkTo(sink);
    });
    expect(out.sort()).toEqual(['x EVENT_TIME 100 sum=30 ts=100', 'y EVENT_TIME 100 sum=60 ts=100', 'y:60@60'].sort());
  });

  it('assignTimestampsAndWatermarks gives timestamps downstream of a source without them; timers need a keyed stream', async () => {
    const input = [3, 1, 2];
    const out = await run<string>((env, sink) => {
      env
        .fromCollection(input)
        .assignTimestampsAndWatermarks(WatermarkStrategy.forBoundedOutOfOrderness<number>(5).withTimestampAssigner((n) => n * 1000))
        .process(
          new (class extends ProcessFunction<number, string> {
            processElement(n: number, ctx: ProcessContext, out: Collector<string>): void {
              out.collect(`${n}@${ctx.timestamp()}`);
              try {
                ctx.timerService().registerEventTimeTimer(1);
              } catch (err) {
                out.collect((err as { code: string }).code);
              }
            }
          })(),
        )
        .sinkTo(sink);
    });
    expect(out).toEqual(['3@3000', 'TIMERS_NOT_KEYED', '1@1000', 'TIMERS_NOT_KEYED', '2@2000', 'TIMERS_NOT_KEYED']);
  });

  it('joins two keyed inputs in a KeyedCoProcessFunction with shared keyed state and timers', async () => {
    type Order = { id: string; ts: number };
    type Payment = { order: string; ts: number };
    class Match extends KeyedCoProcessFunction<string, Order, Payment, string> {
      ordered!: ValueState<number>;
      override open(): void {
        this.ordered = this.getRuntimeContext().getState(new ValueStateDescriptor('ordered', Types.NUMBER));
      }
      processElement1(order: Order, ctx: KeyedProcessContext<string>, _out: Collector<string>): void {
        this.ordered.update(order.ts);
        ctx.timerService().registerEventTimeTimer(order.ts + 100);
      }
      processElement2(payment: Payment, ctx: KeyedProcessContext<string>, out: Collector<string>): void {
        if (this.ordered.value() === undefined) return;
        out.collect(`${ctx.getCurrentKey()} paid at ${payment.ts}`);
        ctx.timerService().deleteEventTimeTimer(this.ordered.value()! + 100);
        this.ordered.clear();
      }
      override onTimer(timestamp: number, ctx: OnTimerContext<string>, out: Collector<string>): void {
        out.collect(`${ctx.getCurrentKey()} unpaid at ${timestamp}`);
      }
    }
    const orders: Order[] = [
      { id: 'o1', ts: 10 },
      { id: 'o2', ts: 20 },
    ];
    const payments: Payment[] = [{ order: 'o2', ts: 50 }];
    const out = await run<string>((env, sink) => {
      env.setParallelism(2);
      const o = env.fromSource(collectionSource(orders), WatermarkStrategy.forMonotonousTimestamps<Order>().withTimestampAssigner((e) => e.ts), 'orders');
      const p = env.fromSource(collectionSource(payments), WatermarkStrategy.forMonotonousTimestamps<Payment>().withTimestampAssigner((e) => e.ts), 'payments');
      o.connect(p)
        .keyBy((x) => x.id, (y) => y.order)
        .process(new Match())
        .sinkTo(sink);
    });
    expect(out.sort()).toEqual(['o1 unpaid at 110', 'o2 paid at 50']);
  });

  it('fires processing-time timers from the task\'s clock', async () => {
    const clock = new ManualClock(1_000);
    class Remind extends KeyedProcessFunction<string, string, string> {
      processElement(value: string, ctx: KeyedProcessContext<string>): void {
        ctx.timerService().registerProcessingTimeTimer(ctx.timerService().currentProcessingTime() + 500);
        void value;
      }
      override onTimer(timestamp: number, ctx: OnTimerContext<string>, out: Collector<string>): void {
        out.collect(`${ctx.getCurrentKey()} ${ctx.timeDomain()} ${timestamp} ${ctx.timestamp()}`);
      }
    }
    const sink = new CollectingSink<string>();
    const control = new SourceControl(2, false);
    const job = await runJob(
      (env) => {
        // Every record flushed at once: the buffer timeout would wait for the manual clock.
        env.setBufferTimeout(0);
        env.fromSource(listSource(['x', 'y'], control), 'names').keyBy((n) => n).process(new Remind()).sinkTo(sink);
      },
      { clock },
    );
    await waitUntil(() => job.task(job.jobGraph.vertices[1]!.name).state === 'RUNNING' && job.task(job.jobGraph.vertices[0]!.name).state === 'RUNNING');
    await new Promise((resolve) => setTimeout(resolve, 50));
    clock.advance(499);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sink.values()).toEqual([]);
    clock.advance(1);
    await waitUntil(() => sink.values().length === 2);
    expect(sink.values().sort()).toEqual(['x PROCESSING_TIME 1500 1500', 'y PROCESSING_TIME 1500 1500']);
    control.release(2, true);
    await job.whenAllTerminal();
  });

  it('windowAll: one window over the whole stream at parallelism 1, with a ProcessAllWindowFunction', async () => {
    const input: Event[] = Array.from({ length: 40 }, (_, i) => ({ key: `k${i % 3}`, ts: i * 5 }));
    const out = await run<string>((env, sink) => {
      env.setParallelism(2);
      env
        .fromSource(collectionSource(input), WatermarkStrategy.forMonotonousTimestamps<Event>().withTimestampAssigner((e) => e.ts), 'events')
        .windowAll(TumblingEventTimeWindows.of(50))
        .process(
          new (class extends ProcessAllWindowFunction<Event, string, TimeWindow> {
            process(ctx: ProcessAllWindowContext<TimeWindow>, elements: Iterable<Event>, out: Collector<string>): void {
              out.collect(`[${ctx.window().start},${ctx.window().end}) ${[...elements].length} p=${this.getRuntimeContext().getNumberOfParallelSubtasks()}`);
            }
          })(),
        )
        .sinkTo(sink);
    });
    expect(out.sort()).toEqual(['[0,50) 10 p=1', '[100,150) 10 p=1', '[150,200) 10 p=1', '[50,100) 10 p=1']);
  });

  it('CountTrigger on tumbling windows fires early and the window still cleans up', async () => {
    const input: Event[] = Array.from({ length: 5 }, (_, i) => ({ key: 'a', ts: i }));
    const out = await run<string>((env, sink) => {
      env
        .fromSource(collectionSource(input), punctuated<Event>(), 'events')
        .keyBy((e) => e.key)
        .window(TumblingEventTimeWindows.of(100))
        .trigger(CountTrigger.of(2))
        .aggregate(count, new Describe())
        .sinkTo(sink);
    });
    expect(out).toEqual(['a [0,100) 2', 'a [0,100) 4']);
  });
});

function collectionSource<T>(items: readonly T[]) {
  return new (class {
    readonly boundedness = 'bounded' as const;
    createReader(context: { subtaskIndex: number; parallelism: number }) {
      let next = context.subtaskIndex;
      return {
        pollNext: (output: { collect(r: T): void }) => {
          if (next >= items.length) return 'end-of-input' as const;
          output.collect(items[next]!);
          next += context.parallelism;
          return 'more-available' as const;
        },
        isAvailable: () => Promise.resolve(),
      };
    }
  })();
}
