import type { Gauge, Registry } from 'prom-client';
import type { Labels } from './gauges.ts';
import { promClientModule } from './prom-client-module.ts';

/** One value of a scrape whose metric name is known only then (a user's metric). */
export interface NamedValue {
  /** The series name below the prefix: `myCounter`, `city_hits`. */
  readonly name: string;
  readonly labels: Labels;
  readonly value: number;
}

/**
 * Gauges `<prefix>_<name>` whose names come with the values, as user metrics do: `sync`, run
 * just before a scrape, creates a gauge for each name seen the first time, sets every value,
 * and drops the gauges of names no series has any more (an ended task's). A name seen with
 * a label it had not had gets its gauge again with every label so far. `help` gives the help
 * text of a name.
 */
export class DynamicGauges {
  readonly #gauges = new Map<string, { gauge: Gauge; labelNames: ReadonlySet<string> }>();

  constructor(
    private readonly registry: Registry,
    private readonly prefix: string,
    private readonly help: (name: string) => string,
  ) {}

  sync(values: Iterable<NamedValue>): void {
    const byName = new Map<string, NamedValue[]>();
    for (const value of values) {
      const list = byName.get(value.name);
      if (list === undefined) byName.set(value.name, [value]);
      else list.push(value);
    }
    for (const [name, entry] of this.#gauges) {
      if (byName.has(name)) continue;
      this.registry.removeSingleMetric(`${this.prefix}_${name}`);
      this.#gauges.delete(name);
    }
    for (const [name, list] of byName) {
      const gauge = this.#gauge(name, list);
      gauge.reset();
      for (const { labels, value } of list) gauge.set(labels as Record<string, string | number>, value);
    }
  }

  #gauge(name: string, values: readonly NamedValue[]): Gauge {
    const labelNames = new Set<string>(this.#gauges.get(name)?.labelNames);
    const known = labelNames.size;
    for (const { labels } of values) for (const label of Object.keys(labels)) labelNames.add(label);
    const existing = this.#gauges.get(name);
    if (existing !== undefined && labelNames.size === known) return existing.gauge;
    const fullName = `${this.prefix}_${name}`;
    if (existing !== undefined) this.registry.removeSingleMetric(fullName);
    const { Gauge } = promClientModule();
    const gauge = new Gauge({ name: fullName, help: this.help(name), labelNames: [...labelNames], registers: [this.registry] });
    this.#gauges.set(name, { gauge, labelNames });
    return gauge;
  }
}
