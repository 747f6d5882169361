import { describe, expect, it } from 'vitest';
import { CoProcessFunction, KeyedCoProcessFunction, Types, ValueStateDescriptor, type Collector, type KeyedProcessContext, type OnTimerContext, type ProcessContext, type ValueState } from '@weir/api';
import { TwoInputStreamOperatorTestHarness } from './two-input-harness.ts';

interface Order {
  readonly id: string;
  readonly item: string;
}
interface Payment {
  readonly orderId: string;
  readonly cents: number;
}

const orderState = new ValueStateDescriptor<Order>('order', Types.GENERIC<Order>());

/** Joins an order with its payment, whichever comes first; an order unpaid at its event time + 100 goes out as unpaid. */
class PayJoin extends KeyedCoProcessFunction<string, Order, Payment, string> {
  #order!: ValueState<Order>;
  #payment!: ValueState<Payment>;

  override open(): void {
    this.#order = this.getRuntimeContext().getState(orderState);
    this.#payment = this.getRuntimeContext().getState(new ValueStateDescriptor<Payment>('payment', Types.GENERIC<Payment>()));
  }

  processElement1(order: Order, ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    const payment = this.#payment.value();
    if (payment === undefined) {
      this.#order.update(order);
      ctx.timerService().registerEventTimeTimer(ctx.timestamp()! + 100);
      return;
    }
    this.#payment.clear();
    out.collect(`${order.item} paid ${payment.cents}`);
  }

  processElement2(payment: Payment, _ctx: KeyedProcessContext<string>, out: Collector<string>): void {
    const order = this.#order.value();
    if (order === undefined) return this.#payment.update(payment);
    this.#order.clear();
    out.collect(`${order.item} paid ${payment.cents}`);
  }

  override onTimer(_timestamp: number, ctx: OnTimerContext<string>, out: Collector<string>): void {
    const order = this.#order.value();
    if (order === undefined) return;
    this.#order.clear();
    out.collect(`${order.item} unpaid (${ctx.getCurrentKey()})`);
  }
}

const harness = () => TwoInputStreamOperatorTestHarness.forKeyedCoProcessFunction(new PayJoin(), (o: Order) => o.id, (p: Payment) => p.orderId);

describe('TwoInputStreamOperatorTestHarness', () => {
  it('joins the two keyed inputs through keyed state, and fires timers at the watermark', async () => {
    const h = harness();
    await h.processElement1({ id: '1', item: 'lamp' }, 10);
    await h.processElement2({ orderId: '2', cents: 500 }, 11);
    await h.processElement1({ id: '2', item: 'desk' }, 12);
    await h.processElement1({ id: '3', item: 'rug' }, 13);
    expect(h.getKeyedState('1', orderState)).toEqual({ id: '1', item: 'lamp' });
    await h.processElement2({ orderId: '1', cents: 30 }, 14);
    expect(h.getKeyedState('1', orderState)).toBeUndefined();
    await h.processWatermark(200);
    expect(h.extractOutputValues()).toEqual(['desk paid 500', 'lamp paid 30', 'rug unpaid (3)']);
  });

  it('restores keyed state and timers', async () => {
    const h = harness();
    await h.processElement1({ id: '1', item: 'lamp' }, 10);
    const snapshot = await h.snapshot();
    const after = TwoInputStreamOperatorTestHarness.restore(h, snapshot);
    await after.processWatermark(110);
    expect(after.extractOutputValues()).toEqual(['lamp unpaid (1)']);
  });

  it('runs a non-keyed CoProcessFunction', async () => {
    class Tag extends CoProcessFunction<number, string, string> {
      processElement1(n: number, _ctx: ProcessContext, out: Collector<string>): void {
        out.collect(`n${n}`);
      }
      processElement2(s: string, _ctx: ProcessContext, out: Collector<string>): void {
        out.collect(`s${s}`);
      }
    }
    const h = TwoInputStreamOperatorTestHarness.forCoProcessFunction(new Tag());
    await h.processElement2('x');
    await h.processElement1(1);
    expect(h.extractOutputValues()).toEqual(['sx', 'n1']);
  });
});
