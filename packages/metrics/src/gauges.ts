import type { Registry } from 'prom-client';
import { promClientModule } from './prom-client-module.ts';

/** Prometheus label values of one series. */
export type Labels = Readonly<Record<string, string | number>>;

/** One series of a scrape: its labels and a value per metric name. */
export interface Series<Name extends string> {
  readonly labels: Labels;
  readonly values: Readonly<Record<Name, number>>;
}

/**
 * Registers gauges `<prefix>_<name>` that are filled only when Prometheus scrapes: `collect`
 * returns the current series, so nothing is recorded between scrapes. Counters are exported
 * as gauges, as Flink's reporter does: a restarted task starts again from 0.
 */
export function scrapedGauges<Name extends string>(
  registry: Registry,
  prefix: string,
  help: Readonly<Record<Name, string>>,
  labelNames: readonly string[],
  collect: () => Iterable<Series<Name>>,
): void {
  const { Gauge } = promClientModule();
  for (const name of Object.keys(help) as Name[]) {
    new Gauge({
      name: `${prefix}_${name}`,
      help: help[name],
      labelNames: [...labelNames],
      registers: [registry],
      collect() {
        this.reset();
        for (const series of collect()) this.set(series.labels as Record<string, string | number>, series.values[name]);
      },
    });
  }
}
