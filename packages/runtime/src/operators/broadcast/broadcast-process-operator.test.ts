import { describe, expect, it } from 'vitest';
import {
  BroadcastProcessFunction,
  KeyedBroadcastProcessFunction,
  MapStateDescriptor,
  Types,
  ValueStateDescriptor,
  type BroadcastContext,
  type Collector,
  type KeyedBroadcastContext,
  type KeyedReadOnlyBroadcastContext,
  type OperatorSpec,
  type ReadOnlyBroadcastContext,
  type ValueState,
} from '@weir/api';
import { errorOf } from '@weir/common/testing';
import { rm } from 'node:fs/promises';
import { OperatorHarness } from '../../testing/operator-harness.ts';
import { keyContext, tempDir } from '../../state/level/level-test-support.ts';
import { LevelKeyedStateBackend } from '../../state/level/level-keyed-state-backend.ts';
import type { OperatorStateStore } from '../../state/operator-state-store.ts';

interface Rule {
  readonly name: string;
  readonly threshold: number;
}
interface Event {
  readonly user: string;
  readonly amount: number;
}

const RULES = new MapStateDescriptor<string, Rule>('rules', Types.STRING, Types.GENERIC<Rule>());
const COUNT = new ValueStateDescriptor<number>('count', Types.NUMBER);

/** Counts each user's events over every rule's threshold; a rule named 'reset' clears every user's count. */
class Alerts extends KeyedBroadcastProcessFunction<string, Event, Rule, string> {
  #count!: ValueState<number>;

  override open(): void {
    this.#count = this.getRuntimeContext().getState(COUNT);
  }

  processElement(event: Event, ctx: KeyedReadOnlyBroadcastContext<string>, out: Collector<string>): void {
    for (const [name, rule] of ctx.getBroadcastState(RULES).immutableEntries()) {
      if (event.amount > rule.threshold) {
        const n = (this.#count.value() ?? 0) + 1;
        this.#count.update(n);
        out.collect(`${ctx.getCurrentKey()}:${name}:${n}`);
      }
    }
  }

  processBroadcastElement(rule: Rule, ctx: KeyedBroadcastContext<string>, out: Collector<string>): void {
    if (rule.name === 'reset') {
      ctx.applyToKeyedState(COUNT, (key, state) => {
        out.collect(`reset ${key} from ${state.value()}`);
        state.clear();
      });
      return;
    }
    ctx.getBroadcastState(RULES).put(rule.name, rule);
  }
}

function keyedSpec(fn: KeyedBroadcastProcessFunction<string, Event, Rule, string>): OperatorSpec {
  return { kind: 'broadcastProcess', fn: fn as never, descriptors: [RULES as MapStateDescriptor<unknown, unknown>], key: (e) => (e as Event).user };
}

async function keyedHarness(options: { lists?: OperatorStateStore; fn?: KeyedBroadcastProcessFunction<string, Event, Rule, string> } = {}): Promise<OperatorHarness> {
  const h = new OperatorHarness(keyedSpec(options.fn ?? new Alerts()), { restored: options.lists !== undefined, ...(options.lists === undefined ? {} : { lists: options.lists }) });
  await h.open();
  return h;
}

describe('BroadcastProcessOperator', () => {
  it('keyed: the broadcast side writes the rules the keyed side reads; applyToKeyedState visits every key with state', async () => {
    const h = await keyedHarness();
    h.element({ user: 'a', amount: 50 });
    expect(h.takeRecords()).toEqual([]);
    h.elementOn(1, { name: 'big', threshold: 10 });
    h.element({ user: 'a', amount: 50 });
    h.element({ user: 'b', amount: 5 });
    h.element({ user: 'b', amount: 20 });
    h.element({ user: ['x', 1] as never, amount: 20 });
    expect(h.takeRecords()).toEqual(['a:big:1', 'b:big:1', 'x,1:big:1']);
    h.elementOn(1, { name: 'reset', threshold: 0 });
    // Key-group order, as Flink gives no order either.
    expect(h.takeRecords().sort()).toEqual(['reset a from 1', 'reset b from 1', 'reset x,1 from 1']);
    h.element({ user: 'a', amount: 50 });
    expect(h.takeRecords()).toEqual(['a:big:1']);
  });

  it('keyed on LevelDB: applyToKeyedState reads the keys asynchronously and visits them before the next record', async () => {
    const local = tempDir('broadcast-level');
    const h = new OperatorHarness(keyedSpec(new Alerts()), {
      backend: (clock) =>
        new LevelKeyedStateBackend({ keys: keyContext(1, 0), label: 'Op', localStateDir: local, jobId: 'j', operatorId: 'op', subtaskIndex: 0, incremental: false, work: undefined, clock }),
    });
    try {
      await h.open();
      h.elementOn(1, { name: 'big', threshold: 10 });
      h.element({ user: 'a', amount: 50 });
      h.element({ user: 'b', amount: 20 });
      h.element({ user: ['x', 1] as never, amount: 20 });
      expect(h.takeRecords()).toEqual(['a:big:1', 'b:big:1', 'x,1:big:1']);
      h.elementOn(1, { name: 'reset', threshold: 0 });
      // As a task does before its next record: the keys are read from the DB, then each is visited.
      await h.settled();
      expect(h.takeRecords().sort()).toEqual(['reset a from 1', 'reset b from 1', 'reset x,1 from 1']);
      h.element({ user: 'a', amount: 50 });
      expect(h.takeRecords()).toEqual(['a:big:1']);
    } finally {
      await h.backend?.dispose();
      await rm(local, { recursive: true, force: true });
    }
  });

  it('snapshots its broadcast state as broadcast-mode operator state and restores it', async () => {
    const h = await keyedHarness();
    h.elementOn(1, { name: 'big', threshold: 10 });
    h.elementOn(1, { name: 'huge', threshold: 100 });
    const lists = await h.snapshot();
    expect([...lists.snapshot()]).toEqual([
      ['rules', { mode: 'broadcast', entries: [['big', { name: 'big', threshold: 10 }], ['huge', { name: 'huge', threshold: 100 }]] }],
      ['rules.schema', { mode: 'broadcast', entries: [{ kind: 'map', keyType: Types.STRING.describe(), type: Types.GENERIC<Rule>().describe() }] }],
    ]);
    const restored = await keyedHarness({ lists });
    restored.element({ user: 'a', amount: 500 });
    expect(restored.takeRecords()).toEqual(['a:big:1', 'a:huge:2']);
  });

  it('refuses to restore a broadcast state whose descriptor changed its types, naming both (INCOMPATIBLE_STATE_SCHEMA)', async () => {
    const h = await keyedHarness();
    h.elementOn(1, { name: 'big', threshold: 10 });
    const lists = await h.snapshot();
    const numbered = new MapStateDescriptor<number, Rule>('rules', Types.NUMBER, Types.GENERIC<Rule>());
    const spec: OperatorSpec = { kind: 'broadcastProcess', fn: new Alerts() as never, descriptors: [numbered as MapStateDescriptor<unknown, unknown>], key: (e) => (e as Event).user };
    const changed = new OperatorHarness(spec, { restored: true, lists });
    await expect(changed.open()).rejects.toMatchObject({
      code: 'INCOMPATIBLE_STATE_SCHEMA',
      message: "the key type of state 'rules' was STRING, now NUMBER: key types never evolve; keep STRING as the key type",
    });
  });

  it('non-keyed: a BroadcastProcessFunction with the state read-only on the element side', async () => {
    const tags = new MapStateDescriptor<string, string>('tags', Types.STRING, Types.STRING);
    class Tagger extends BroadcastProcessFunction<string, [string, string], string> {
      processElement(value: string, ctx: ReadOnlyBroadcastContext, out: Collector<string>): void {
        out.collect(`${value}=${ctx.getBroadcastState(tags).get(value) ?? '?'}`);
      }
      processBroadcastElement([k, v]: [string, string], ctx: BroadcastContext): void {
        ctx.getBroadcastState(tags).put(k, v);
      }
    }
    const h = new OperatorHarness({ kind: 'broadcastProcess', fn: new Tagger() as never, descriptors: [tags as MapStateDescriptor<unknown, unknown>] }, { keyed: false });
    await h.open();
    h.element('a');
    h.elementOn(1, ['a', 'A']);
    h.element('a', 7);
    expect(h.emitted).toEqual([
      { kind: 'record', value: 'a=?', timestamp: undefined },
      { kind: 'record', value: 'a=A', timestamp: 7 },
    ]);
  });

  it('refuses broadcast state misused: written on the element side, unregistered, or used as keyed state', async () => {
    class Writes extends KeyedBroadcastProcessFunction<string, Event, Rule, string> {
      processElement(event: Event, ctx: KeyedReadOnlyBroadcastContext<string>): void {
        (ctx.getBroadcastState(RULES) as unknown as { put(k: string, v: Rule): void }).put(event.user, { name: 'x', threshold: 0 });
      }
      processBroadcastElement(): void {}
    }
    const writes = await keyedHarness({ fn: new Writes() });
    const readOnly = errorOf(() => writes.element({ user: 'a', amount: 1 }));
    expect(readOnly.code).toBe('BROADCAST_STATE_MISUSED');
    expect(readOnly.message).toContain("broadcast state 'rules' is read-only in processElement");

    class Unregistered extends KeyedBroadcastProcessFunction<string, Event, Rule, string> {
      processElement(): void {}
      processBroadcastElement(_rule: Rule, ctx: KeyedBroadcastContext<string>): void {
        ctx.getBroadcastState(new MapStateDescriptor('rulez', Types.STRING, Types.STRING));
      }
    }
    const h = await keyedHarness({ fn: new Unregistered() });
    const unknown = errorOf(() => h.elementOn(1, { name: 'r', threshold: 1 }));
    expect(unknown.code).toBe('BROADCAST_STATE_MISUSED');
    expect(unknown.message).toContain("broadcast state 'rulez', which does not exist: this operator's broadcast(...) registered 'rules'");

    class KeyedUse extends KeyedBroadcastProcessFunction<string, Event, Rule, string> {
      override open(): void {
        this.getRuntimeContext().getMapState(RULES);
      }
      processElement(): void {}
      processBroadcastElement(): void {}
    }
    const keyedUse = new OperatorHarness(keyedSpec(new KeyedUse()));
    const opened = await keyedUse.open().then(
      () => undefined,
      (err: unknown) => err as { code: string; message: string },
    );
    expect(opened?.code).toBe('BROADCAST_STATE_MISUSED');
    expect(opened?.message).toContain("getMapState('rules')");
  });
});
