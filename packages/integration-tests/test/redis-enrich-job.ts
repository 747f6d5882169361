/**
 * The job of redis-async.test.ts: indexes 0 … n-1 from one generator split, each enriched
 * from Redis (`GET <prefix>:<i>`, which the test set to 5i) through
 * AsyncDataStream.orderedWaitWithRetry. Each attempt times out after 300 ms and is tried
 * again after 50 ms: the first attempt for every i with i % 200 = 7 runs `BLPOP` on an empty
 * list for 2 s on a connection of its own, so it times out (counted in `<prefix>:timeouts`). The keyed
 * CheckOrder after it writes `i v in-order`.
 *
 * args: output dir, events, events/s, Redis host:port, key prefix, checkpoint interval ms
 */
import { AsyncDataStream, AsyncRetryStrategies, RetryPredicates, RichAsyncFunction, TimeUnit, type ResultFuture, type StreamExecutionEnvironment } from '@weir/api';
import { DataGeneratorSource, FileSink, RateLimiterStrategy, SimpleStringEncoder } from '@weir/connectors';
import { CheckOrder, type Enriched } from './check-order.ts';
import { RedisConnection } from './redis-client.ts';

/** Rejects with a timeout after `ms`, closing `connection` if given (a blocked BLPOP). */
function withTimeout<T>(promise: Promise<T>, ms: number, connection?: RedisConnection): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      connection?.close();
      reject(new Error(`Redis attempt timed out after ${ms} ms`));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

class RedisLookup extends RichAsyncFunction<number, Enriched> {
  #redis!: RedisConnection;
  readonly #tried = new Set<number>();

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly prefix: string,
  ) {
    super();
  }

  override open(): void {
    this.#redis = new RedisConnection(this.host, this.port);
  }

  override asyncInvoke(i: number, result: ResultFuture<Enriched>): void {
    const first = !this.#tried.has(i);
    this.#tried.add(i);
    let lookup: Promise<Enriched[]>;
    if (first && i % 200 === 7) {
      const blocking = new RedisConnection(this.host, this.port);
      lookup = withTimeout(blocking.command('BLPOP', `${this.prefix}:never`, '2'), 300, blocking).then(
        () => [],
        async (err: unknown) => {
          // Counted where the test can see it: every index's hanging first attempt timed out.
          await this.#redis.command('INCR', `${this.prefix}:timeouts`);
          throw err;
        },
      );
    } else {
      lookup = withTimeout(this.#redis.command('GET', `${this.prefix}:${i}`), 300).then((v) => [{ i, v: Number(v) }]);
    }
    lookup.then(
      (records) => result.complete(records),
      (err: unknown) => result.completeExceptionally(err),
    );
  }

  override close(): void {
    this.#redis.close();
  }
}

export default function redisEnrich(env: StreamExecutionEnvironment, args: string[]): void {
  const [output, events, rate, redis, prefix, interval] = args as [string, string, string, string, string, string];
  const [host, port] = redis.split(':') as [string, string];
  env.setParallelism(1);
  env.enableCheckpointing(Number(interval));
  const retry = new AsyncRetryStrategies.FixedDelayRetryStrategyBuilder<Enriched>(20, 50).ifException(RetryPredicates.HAS_EXCEPTION_PREDICATE).build();
  const indexes = env.fromSource(new DataGeneratorSource((i: number) => i, Number(events), RateLimiterStrategy.perSecond(Number(rate))), 'indexes').uid('indexes');
  AsyncDataStream.orderedWaitWithRetry(indexes, new RedisLookup(host, Number(port), prefix), 30, TimeUnit.SECONDS, 20, retry)
    .uid('enrich')
    .keyBy(() => 'all')
    .process(new CheckOrder())
    .uid('check-order')
    .sinkTo(FileSink.forRowFormat(output, new SimpleStringEncoder<string>()).build())
    .uid('sink');
}
